import type { Language } from '../i18n/catalogue.ts';
import { ALGORITHM_V2, type CertificateV2 } from '../proof/v2-types.ts';
import type { CertificateV1 } from '../proof/verify-v1.ts';
import { contentV1, contentV2 } from './certificate-content.ts';
import { renderInWorker } from './pdf-renderer.ts';

/**
 * A one-page A4 certificate in the reader's language (winners first, then the evidence) with a QR code to the verification page, made on each request.
 * Any title renders: fonts are chosen per character from the packaged Noto families. Made in
 * the PDF renderer process (pdf-renderer.ts).
 */
export async function renderCertificatePdf(
  cert: CertificateV1 | CertificateV2,
  pageUrl: string,
  specUrl: string,
  language: Language = 'en',
): Promise<Buffer> {
  const content =
    cert.algorithm === ALGORITHM_V2
      ? contentV2(cert as CertificateV2, pageUrl, specUrl, language)
      : contentV1(cert as CertificateV1, pageUrl, specUrl, language);
  return renderInWorker(content, pageUrl);
}
