import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalJson, canonicalJsonBytes } from '../../src/proof/canonical-json.ts';

function double(bits: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${bits}`));
  return view.getFloat64(0);
}

describe('RFC 8785 examples', () => {
  test('§3.2.2: literals, numbers and string escapes', () => {
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    const expected = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;
    assert.equal(canonicalJson(JSON.parse(input)), expected);
    // §3.2.4: the canonical form is hashed and signed as UTF-8.
    assert.deepEqual(Buffer.from(canonicalJsonBytes(JSON.parse(input))), Buffer.from(expected, 'utf8'));
  });

  test('§3.2.3: properties sorted by UTF-16 code units, non-ASCII keys included', () => {
    const input = String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    const expected =
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
      '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    assert.equal(canonicalJson(JSON.parse(input)), expected);
  });

  test('Appendix B: number serialization', () => {
    const table: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [bits, text] of table) assert.equal(canonicalJson(double(bits)), text, bits);
    assert.equal(canonicalJson(-0), '0');
    assert.equal(canonicalJson(1e21), '1e+21');
    assert.equal(canonicalJson(1e-7), '1e-7');
    assert.equal(canonicalJson(1e20), '100000000000000000000');
  });

  test('non-finite numbers are refused (Appendix B NaN and Infinity rows)', () => {
    for (const bits of ['7fffffffffffffff', '7ff0000000000000', 'fff0000000000000']) {
      assert.throws(() => canonicalJson(double(bits)), TypeError);
    }
    assert.throws(() => canonicalJson({ a: [1, Number.NaN] }), /\$\.a\[1\]/);
  });
});

describe('strings, structure and refusals', () => {
  test('escapes exactly what JSON requires', () => {
    assert.equal(canonicalJson('\u0000\u0008\t\n\u000b\f\r\u001f'), '"\\u0000\\b\\t\\n\\u000b\\f\\r\\u001f"');
    assert.equal(canonicalJson('"\\/'), '"\\"\\\\/"');
    // DEL, U+2028 and non-ASCII stay literal.
    assert.equal(canonicalJson('\u007f\u2028é😀'), '"\u007f\u2028é😀"');
  });

  test('refuses lone surrogates in values and keys (I-JSON)', () => {
    assert.throws(() => canonicalJson('a\ud800'), TypeError);
    assert.throws(() => canonicalJson('\udc00b'), TypeError);
    assert.throws(() => canonicalJson({ '\ud83d': 1 }), TypeError);
    assert.equal(canonicalJson('\ud83d\ude00'), '"😀"');
  });

  test('sorts nested objects, keeps array order, emits no whitespace', () => {
    const value = { b: [3, { z: 1, a: { y: true, x: null } }, 'q'], a: {}, c: [] };
    assert.equal(canonicalJson(value), '{"a":{},"b":[3,{"a":{"x":null,"y":true},"z":1},"q"],"c":[]}');
    assert.equal(canonicalJson({ b: 1, a: 2 }), canonicalJson({ a: 2, b: 1 }));
  });

  test('equals the canonical form of its JSON round trip', () => {
    const value = { when: new Date(Date.UTC(2025, 0, 2, 3, 4, 5)), skipped: undefined, n: 1.5 };
    assert.equal(canonicalJson(value), '{"n":1.5,"when":"2025-01-02T03:04:05.000Z"}');
    assert.equal(canonicalJson(value), canonicalJson(JSON.parse(JSON.stringify(value))));
  });

  test('refuses values JSON cannot carry', () => {
    assert.throws(() => canonicalJson(1n), TypeError);
    assert.throws(() => canonicalJson([undefined]), TypeError);
    assert.throws(() => canonicalJson({ f: () => 1 }), TypeError);
    assert.throws(() => canonicalJson(Symbol('s')), TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.throws(() => canonicalJson(cycle), /circular/);
    const shared = { x: 1 };
    assert.equal(canonicalJson([shared, shared]), '[{"x":1},{"x":1}]');
  });
});
