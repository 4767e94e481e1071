/** An image's size in pixels, as its header says. */
export type ImageSize = { width: number; height: number };

/**
 * The width and height a PNG, JPEG, GIF or WebP image's header gives (the raster kinds a model is
 * shown, see RASTER_IMAGE_TYPES); undefined for anything else or a header cut short.
 */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (text: string, at: number) =>
    bytes.length >= at + text.length &&
    [...text].every((character, index) => bytes[at + index] === character.charCodeAt(0));
  const sized = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);
  try {
    if (has('\x89PNG\r\n\x1a\n', 0) && has('IHDR', 12)) return sized(view.getUint32(16), view.getUint32(20));
    if (has('GIF8', 0)) return sized(view.getUint16(6, true), view.getUint16(8, true));
    if (has('RIFF', 0) && has('WEBP', 8)) return webpSize(bytes, view, has);
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes, view);
  } catch {
    // A header cut short: its size is not known.
  }
  return undefined;
}

function webpSize(bytes: Uint8Array, view: DataView, has: (text: string, at: number) => boolean) {
  if (has('VP8 ', 12)) return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (has('VP8L', 12)) {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (has('VP8X', 12))
    return {
      width: 1 + (bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16)),
      height: 1 + (bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16)),
    };
  return undefined;
}

/** A JPEG's size from its first start-of-frame segment (SOF0 to SOF15 but DHT, JPG and DAC). */
function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

/**
 * The tokens Phi-3.5 vision reads for an image in WebLLM, as WebLLM 0.2.86 computes them for a
 * `phi3_v` model (`computeImageEmbedSize`, after mlc-llm's `_compute_embed_size`): the image is
 * scaled to at most 16 crops of 336 px, each read as 12 x 12 tokens with one more ending each row
 * of tokens, then a separator and a global view of 12 x (12 + 1). A 640 x 480 photo takes 1,921;
 * a square one 2,509.
 */
export function phi3VisionImageTokens({ width, height }: ImageSize): number {
  const ratio = width / height;
  let scale = 1;
  while (scale * Math.ceil(scale / ratio) <= 16) scale += 1;
  scale -= 1;
  const cropsWide = scale;
  const cropsHigh = Math.ceil(Math.floor((scale * 336) / ratio) / 336);
  return cropsHigh * 12 * (cropsWide * 12 + 1) + 1 + 12 * (12 + 1);
}

/** The most {@link phi3VisionImageTokens} gives for any image (a tall, narrow one): an image whose size is unknown counts this. */
export const PHI3_VISION_MAX_IMAGE_TOKENS = 2653;
