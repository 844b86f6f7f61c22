// The PDF renderer process (pdf-renderer.ts starts it): lays out each certificate it is sent and
// answers with the file, or with what went wrong. It ends with the server: when the channel to
// it closes (the server ended, even by SIGKILL), it has no one left to answer.

import { renderContent } from './certificate-layout.ts';
import type { RenderAnswer, RenderJob } from './pdf-renderer.ts';

const send = process.send?.bind(process);
if (!send) throw new Error('pdf-worker.ts runs as a child process with an IPC channel');

process.on('message', async ({ id, content, pageUrl }: RenderJob) => {
  let answer: RenderAnswer;
  try {
    answer = { id, pdf: await renderContent(content, pageUrl) };
  } catch (error) {
    answer = { id, error: (error as Error).message };
  }
  send(answer);
});
process.on('disconnect', () => process.exit(0));
