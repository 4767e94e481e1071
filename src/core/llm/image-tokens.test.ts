import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { imageSize, PHI3_VISION_MAX_IMAGE_TOKENS, phi3VisionImageTokens } from './image-tokens.ts';
import { webLlmImageTokens } from './webllm-tokens.ts';

const bytesOf = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)));
const be16 = (value: number) => [value >> 8, value & 0xff];
const le16 = (value: number) => [value & 0xff, value >> 8];
const le24 = (value: number) => [value & 0xff, (value >> 8) & 0xff, value >> 16];

/** The headers of images of a known size, as their formats lay them out. */
const gif = bytesOf('GIF89a', le16(640), le16(480), [0, 0, 0]);
const jpeg = bytesOf(
  [0xff, 0xd8],
  // An APP0 (JFIF) segment first: the size comes from the frame after it.
  [0xff, 0xe0],
  be16(16),
  'JFIF\0',
  [1, 2, 0, 0, 1, 0, 1, 0, 0],
  // A progressive frame (SOF2): precision, height, width.
  [0xff, 0xc2],
  be16(17),
  [8],
  be16(600),
  be16(800),
  [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1],
);
const webpExtended = bytesOf('RIFF', [0, 0, 0, 0], 'WEBPVP8X', [10, 0, 0, 0], [0, 0, 0, 0], le24(999), le24(599));
const webpLossless = (() => {
  const bits = (1000 - 1) | ((600 - 1) << 14);
  return bytesOf(
    'RIFF',
    [0, 0, 0, 0],
    'WEBPVP8L',
    [5, 0, 0, 0],
    [0x2f],
    [bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24],
  );
})();
const webpLossy = bytesOf(
  'RIFF',
  [0, 0, 0, 0],
  'WEBPVP8 ',
  [0, 0, 0, 0],
  [0, 0, 0],
  [0x9d, 0x01, 0x2a],
  le16(320),
  le16(240),
);

describe("an image's size, from its header", () => {
  it('is read from PNG, GIF, JPEG and WebP (lossy, lossless, extended)', () => {
    const png = new Uint8Array(readFileSync(new URL('../../../public/icons/icon-192.png', import.meta.url)));
    expect(imageSize(png)).toEqual({ width: 192, height: 192 });
    expect(imageSize(gif)).toEqual({ width: 640, height: 480 });
    expect(imageSize(jpeg)).toEqual({ width: 800, height: 600 });
    expect(imageSize(webpExtended)).toEqual({ width: 1000, height: 600 });
    expect(imageSize(webpLossless)).toEqual({ width: 1000, height: 600 });
    expect(imageSize(webpLossy)).toEqual({ width: 320, height: 240 });
  });

  it('is unknown for other bytes, or a header cut short', () => {
    expect(imageSize(bytesOf('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(imageSize(jpeg.slice(0, 20))).toBeUndefined();
    expect(imageSize(bytesOf('\x89PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR', [0, 0]))).toBeUndefined();
  });
});

describe("Phi-3.5 vision's tokens for an image (WebLLM 0.2.86's phi3_v rule)", () => {
  it('follows from the size: 16 crops of 336 px at most, 12 x 12 tokens each and a token a row, a global view', () => {
    expect(phi3VisionImageTokens({ width: 640, height: 480 })).toBe(1921);
    expect(phi3VisionImageTokens({ width: 336, height: 336 })).toBe(2509);
    expect(phi3VisionImageTokens({ width: 1920, height: 1080 })).toBe(
      // Scaled to 5 crops wide and 3 high: 36 rows of 60 + 1 tokens, a separator, 12 x 13 global.
      3 * 12 * (5 * 12 + 1) + 1 + 156,
    );
  });

  it('is never more than the stated most, which a tall, narrow image reaches', () => {
    let most = 0;
    for (let width = 1; width <= 3000; width += 13)
      for (let height = 1; height <= 3000; height += 13)
        most = Math.max(most, phi3VisionImageTokens({ width, height }));
    expect(most).toBe(PHI3_VISION_MAX_IMAGE_TOKENS);
  });

  it('is what a WebLLM context counts for its vision model, and only for it', () => {
    const count = webLlmImageTokens('Phi-3.5-vision-instruct-q4f16_1-MLC')!;
    expect(count({ mediaType: 'image/gif', bytes: gif })).toBe(1921);
    // A header that does not say its size: the most.
    expect(count({ mediaType: 'image/png', bytes: bytesOf('\x89PNG') })).toBe(PHI3_VISION_MAX_IMAGE_TOKENS);
    expect(webLlmImageTokens('Llama-3.1-8B-Instruct-q4f16_1-MLC')).toBeUndefined();
  });
});
