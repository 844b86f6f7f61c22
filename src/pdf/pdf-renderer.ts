// Certificates are laid out in a child process, started with the first PDF asked for and ended
// once none has been asked for a while. pdfkit, fontkit, the WebAssembly font tools and the fonts
// they decoded (tens of megabytes; more once titles in other scripts come) live only while PDFs
// are wanted, and a render, about 0.4 s of CPU, never holds up the requests around it. A process
// rather than a worker thread: when a thread ends, the C allocator keeps the memory it used in
// the server's resident set (about 30 MB after one PDF, measured), where an ended process gives
// all of it back.

import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CertificateContent } from './certificate-content.ts';

export interface RenderJob {
  id: number;
  content: CertificateContent;
  pageUrl: string;
}

export type RenderAnswer = { id: number; pdf: Uint8Array } | { id: number; error: string };

/** How long the renderer outlives its last PDF: a burst of requests shares one. */
export const PDF_WORKER_IDLE_MS = 30_000;

const ENTRY = fileURLToPath(new URL('./pdf-worker.ts', import.meta.url));

interface Running {
  child: ChildProcess;
  pending: Map<number, { resolve(pdf: Buffer): void; reject(error: Error): void }>;
  idle?: NodeJS.Timeout;
}

let running: Running | undefined;
let nextId = 1;

function start(): Running {
  // Typed arrays cross the channel as they are with the structured-clone serialization.
  const child = fork(ENTRY, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const self: Running = { child, pending: new Map() };
  const failAll = (error: Error) => {
    for (const { reject } of self.pending.values()) reject(error);
    self.pending.clear();
    clearTimeout(self.idle);
    if (running === self) running = undefined;
  };
  child.on('message', (answer: RenderAnswer) => {
    const waiting = self.pending.get(answer.id);
    self.pending.delete(answer.id);
    if ('pdf' in answer)
      waiting?.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
    else waiting?.reject(new Error(`the certificate PDF could not be made: ${answer.error}`));
    if (self.pending.size > 0) return;
    // Nothing keeps the server alive for an idle renderer, which ends after a while.
    child.unref();
    child.channel?.unref();
    self.idle = setTimeout(() => {
      if (running === self) running = undefined;
      child.kill();
    }, PDF_WORKER_IDLE_MS).unref();
  });
  child.on('error', failAll);
  child.on('exit', () => failAll(new Error('the PDF renderer stopped')));
  return self;
}

/** The certificate page of `content` as a PDF file, made in the renderer process. */
export function renderInWorker(content: CertificateContent, pageUrl: string): Promise<Buffer> {
  running ??= start();
  const { child, pending } = running;
  clearTimeout(running.idle);
  child.ref();
  child.channel?.ref();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    child.send({ id, content, pageUrl } satisfies RenderJob);
  });
}

/** Whether the renderer runs now (for tests). */
export const pdfWorkerRunning = () => running !== undefined;
