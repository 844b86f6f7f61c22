import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Parses a PDF and returns its page count and the text of each page. */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string[] }> {
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 })
    .promise;
  const text: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { pages, text };
}
