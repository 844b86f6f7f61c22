// Certificates are laid out in a worker thread, started with the first PDF asked for and ended
// once none has been asked for a while. pdfkit, fontkit, the WebAssembly font tools and the fonts
// they decoded (tens of megabytes; more once titles in other scripts come) live only while PDFs
// are wanted, and a render, about 0.4 s of CPU, never holds up the requests around it.

import { Worker } from 'node:worker_threads';
import type { CertificateContent } from './certificate-content.ts';

export interface RenderJob {
  id: number;
  content: CertificateContent;
  pageUrl: string;
}

export type RenderAnswer = { id: number; pdf: Uint8Array } | { id: number; error: string };

/** How long the worker outlives its last PDF: a burst of requests shares one. */
export const PDF_WORKER_IDLE_MS = 30_000;

interface Running {
  worker: Worker;
  pending: Map<number, { resolve(pdf: Buffer): void; reject(error: Error): void }>;
  idle?: NodeJS.Timeout;
}

let running: Running | undefined;
let nextId = 1;

function start(): Running {
  const worker = new Worker(new URL('./pdf-worker.ts', import.meta.url));
  const self: Running = { worker, pending: new Map() };
  const failAll = (error: Error) => {
    for (const { reject } of self.pending.values()) reject(error);
    self.pending.clear();
    clearTimeout(self.idle);
    if (running === self) running = undefined;
  };
  worker.on('message', (answer: RenderAnswer) => {
    const waiting = self.pending.get(answer.id);
    self.pending.delete(answer.id);
    if ('pdf' in answer)
      waiting?.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
    else waiting?.reject(new Error(`the certificate PDF could not be made: ${answer.error}`));
    if (self.pending.size > 0) return;
    // Nothing keeps the process alive for an idle worker, which ends after a while.
    worker.unref();
    self.idle = setTimeout(() => {
      if (running === self) running = undefined;
      void worker.terminate();
    }, PDF_WORKER_IDLE_MS).unref();
  });
  worker.on('error', failAll);
  worker.on('exit', () => failAll(new Error('the PDF worker stopped')));
  return self;
}

/** The certificate page of `content` as a PDF file, made in the worker. */
export function renderInWorker(content: CertificateContent, pageUrl: string): Promise<Buffer> {
  running ??= start();
  const { worker, pending } = running;
  clearTimeout(running.idle);
  worker.ref();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, content, pageUrl } satisfies RenderJob);
  });
}

/** Whether the worker runs now (for tests). */
export const pdfWorkerRunning = () => running !== undefined;
