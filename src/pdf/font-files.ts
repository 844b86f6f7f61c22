import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import decompressWoff2 from 'woff2-encoder/decompress';

// The packaged fonts are WOFF2 and mostly variable. fontkit can read WOFF2 but cannot subset it
// (it copies the transformed glyf table as is: blank glyphs in the PDF), and its own instancer
// fails on fontkit 2.0.4. So each file becomes a plain static TrueType first: WOFF2 decoded by
// Google's decoder, then every axis pinned by HarfBuzz's instancer, both compiled to WebAssembly.

const require = createRequire(import.meta.url);

interface HarfBuzzSubset {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_keep_everything(input: number): void;
  hb_subset_input_pin_all_axes_to_default(input: number, face: number): number;
  hb_subset_input_pin_axis_location(input: number, face: number, tag: number, value: number): number;
  hb_subset_or_fail(face: number, input: number): number;
  _initialize(): void;
}

const HB_MEMORY_MODE_READONLY = 1;

let harfBuzz: Promise<HarfBuzzSubset> | undefined;
function loadHarfBuzz(): Promise<HarfBuzzSubset> {
  harfBuzz ??= (async () => {
    const wasm = await readFile(require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm'));
    const { instance } = await WebAssembly.instantiate(wasm);
    const exports = instance.exports as unknown as HarfBuzzSubset;
    exports._initialize();
    return exports;
  })();
  return harfBuzz;
}

const tagOf = (tag: string) => [...tag].reduce((value, c) => (value << 8) | c.charCodeAt(0), 0) >>> 0;

/** The table tags of an SFNT file (its directory: 12-byte header, then 16-byte records). */
export function sfntTables(font: Uint8Array): string[] {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const count = view.getUint16(4);
  return Array.from({ length: count }, (_, i) =>
    String.fromCharCode(...font.subarray(12 + i * 16, 16 + i * 16)),
  );
}

/** A static instance of a variable font: `axes` pinned where the font has them, others at default. */
export async function pinAxes(font: Uint8Array, axes: Readonly<Record<string, number>>): Promise<Uint8Array> {
  const hb = await loadHarfBuzz();
  const pointer = hb.malloc(font.byteLength);
  if (pointer === 0) throw new Error('HarfBuzz could not allocate the font');
  new Uint8Array(hb.memory.buffer).set(font, pointer);
  const blob = hb.hb_blob_create(pointer, font.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
  const face = hb.hb_face_create(blob, 0);
  hb.hb_blob_destroy(blob);
  const input = hb.hb_subset_input_create_or_fail();
  let instance = 0;
  try {
    if (input === 0) throw new Error('HarfBuzz could not create a subset input');
    hb.hb_subset_input_keep_everything(input);
    hb.hb_subset_input_pin_all_axes_to_default(input, face);
    // An axis the font lacks is refused, which is fine: it stays at its (only) value.
    for (const [axis, value] of Object.entries(axes)) {
      hb.hb_subset_input_pin_axis_location(input, face, tagOf(axis), value);
    }
    instance = hb.hb_subset_or_fail(face, input);
    if (instance === 0) throw new Error('HarfBuzz could not instance the font');
    const result = hb.hb_face_reference_blob(instance);
    const data = hb.hb_blob_get_data(result, 0);
    // Copied out before anything else runs: the wasm memory may grow and move later.
    const bytes = new Uint8Array(hb.memory.buffer, data, hb.hb_blob_get_length(result)).slice();
    hb.hb_blob_destroy(result);
    return bytes;
  } finally {
    if (input !== 0) hb.hb_subset_input_destroy(input);
    if (instance !== 0) hb.hb_face_destroy(instance);
    hb.hb_face_destroy(face);
    hb.free(pointer);
  }
}

/** A WOFF2 file as a static TrueType font that pdfkit can subset and embed. */
export async function staticFontFromWoff2(
  woff2: Uint8Array,
  axes: Readonly<Record<string, number>>,
): Promise<Uint8Array> {
  const sfnt = await decompressWoff2(woff2);
  return sfntTables(sfnt).includes('fvar') ? pinAxes(sfnt, axes) : sfnt;
}
