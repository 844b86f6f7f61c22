// The PDF worker thread (pdf-renderer.ts starts it): lays out each certificate it is sent and
// answers with the file, or with what went wrong.

import { parentPort } from 'node:worker_threads';
import { renderContent } from './certificate-layout.ts';
import type { RenderAnswer, RenderJob } from './pdf-renderer.ts';

const port = parentPort;
if (!port) throw new Error('pdf-worker.ts runs as a worker thread');

port.on('message', async ({ id, content, pageUrl }: RenderJob) => {
  let answer: RenderAnswer;
  try {
    answer = { id, pdf: await renderContent(content, pageUrl) };
  } catch (error) {
    answer = { id, error: (error as Error).message };
  }
  port.postMessage(answer);
});
