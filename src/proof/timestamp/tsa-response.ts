// Reading a TSA's answer (RFC 3161 §2.4.2): the status, and the token exactly as the TSA encoded it,
// since the token is what Tyche keeps and publishes and every verifier re-checks byte for byte.

import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export type TimeStampAnswer = { granted: true; token: Uint8Array } | { granted: false; reason: string };

const STATUS_NAMES = [
  'granted',
  'grantedWithMods',
  'rejection',
  'waiting',
  'revocationWarning',
  'revocationNotification',
];

/** The token of a granted (0) or grantedWithMods (1) answer, else why there is none. Never throws. */
export function readTimeStampResponse(der: Uint8Array): TimeStampAnswer {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || parsed.offset !== der.byteLength) {
    return { granted: false, reason: 'the answer is not one DER TimeStampResp' };
  }
  let response: pkijs.TimeStampResp;
  try {
    response = new pkijs.TimeStampResp({ schema: parsed.result });
  } catch (error) {
    return { granted: false, reason: `the answer is not a TimeStampResp (${(error as Error).message})` };
  }
  const status = response.status.status as number;
  if (status !== 0 && status !== 1) {
    const said = response.status.statusStrings?.map((s) => s.valueBlock.value).join('; ');
    const name = STATUS_NAMES[status] ?? `status ${status}`;
    return { granted: false, reason: `the TSA answered ${name}${said ? `: ${said}` : ''}` };
  }
  // The token's own bytes, not a re-encoding: the second member of the TimeStampResp sequence.
  const members = (parsed.result as asn1js.Sequence).valueBlock.value;
  if (!response.timeStampToken || members.length < 2) {
    return { granted: false, reason: 'the TSA granted the request but sent no token' };
  }
  return { granted: true, token: new Uint8Array(members[1].valueBeforeDecodeView) };
}
