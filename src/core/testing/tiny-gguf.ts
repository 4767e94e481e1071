/**
 * A tiny random-weight llama model as a GGUF v3 file, made by code for real-inference tests
 * (no download, no committed binary; see ../shared/notes/TINY-GGUF.md). It is meaningless:
 * tests with it prove plumbing and constraints, never answer quality. The same seed gives the
 * same bytes.
 *
 * Its vocabulary is SentencePiece with byte fallback: <unk>, <s>, </s>, the 256 byte tokens, "▁",
 * printable ASCII, and a few two-character merges. Embedding dimension 0 is a constant for every
 * token, so column 0 of output.weight acts as a per-token logit bias: it bans the bytes a strict
 * UTF-8 reader would choke on (0x80-0xFF, controls but newline), <unk> and <s>, and makes </s> rare.
 */

/** The model's shape: small enough to generate in well under a second. */
export const TINY_GGUF_SHAPE = { layers: 2, width: 64, heads: 4, feedForward: 128, context: 256 } as const;

/** The two-character merges of the vocabulary (SentencePiece pieces, "▁" for a space). */
export const TINY_GGUF_MERGES = ['▁t', 'he', 'in', '▁a', 'er', 'on', '▁s', 're', 'an', 'or'] as const;

const SPACE = '▁';
const ALIGNMENT = 32;
const BOS = 1;
const EOS = 2;
const CONSTANT_DIMENSION_VALUE = 8;
const LAYER_WEIGHT_STD = 0.1;

/** GGUF value types (ggml's gguf_type). */
const TYPE = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 } as const;
/** SentencePiece token types as llama.cpp reads them. */
const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;

type Token = { text: string; score: number; type: number; logitBias: number };

/** The vocabulary, in id order. */
export function tinyVocabulary(): Token[] {
  const tokens: Token[] = [
    { text: '<unk>', score: 0, type: TOKEN_TYPE.unknown, logitBias: -8 },
    { text: '<s>', score: 0, type: TOKEN_TYPE.control, logitBias: -8 },
    { text: '</s>', score: 0, type: TOKEN_TYPE.control, logitBias: -0.4 },
  ];
  for (let byte = 0; byte < 256; byte++) {
    // Only printable ASCII and newline may be produced as bytes; the rest would break UTF-8.
    const isAllowed = byte === 0x0a || (byte >= 0x20 && byte < 0x7f);
    tokens.push({
      text: `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`,
      score: 0,
      type: TOKEN_TYPE.byte,
      logitBias: isAllowed ? 0 : -8,
    });
  }
  tokens.push({ text: SPACE, score: -1, type: TOKEN_TYPE.normal, logitBias: 0 });
  for (let code = 0x21; code < 0x7f; code++)
    tokens.push({
      text: String.fromCharCode(code),
      score: -2 - (code - 0x21) / 1000,
      type: TOKEN_TYPE.normal,
      logitBias: 0,
    });
  // Merges score above single characters, so SentencePiece takes them.
  TINY_GGUF_MERGES.forEach((merge, index) =>
    tokens.push({ text: merge, score: -index / 100, type: TOKEN_TYPE.normal, logitBias: 0 }),
  );
  return tokens;
}

/**
 * The tokens llama.cpp's SentencePiece tokenizer gives a plain-ASCII text: "▁" added in front,
 * spaces as "▁", then the best-scoring adjacent pair that is a piece merged, again and again
 * (without the BOS the model adds). Lets tests predict prompt token counts exactly.
 */
export function tinyTokenize(text: string): string[] {
  const vocabulary = new Map(tinyVocabulary().map((token) => [token.text, token.score]));
  let pieces = [...`${SPACE}${text.replace(/ /g, SPACE)}`];
  for (;;) {
    let best = -1;
    let bestScore = -Infinity;
    for (let index = 0; index < pieces.length - 1; index++) {
      const score = vocabulary.get(pieces[index]! + pieces[index + 1]!);
      if (score !== undefined && score > bestScore) {
        best = index;
        bestScore = score;
      }
    }
    if (best < 0) return pieces;
    pieces = [...pieces.slice(0, best), pieces[best]! + pieces[best + 1]!, ...pieces.slice(best + 2)];
  }
}

/** A deterministic normal sample generator (mulberry32, then Box-Muller). */
function normalRandom(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform() || Number.MIN_VALUE)) * Math.cos(2 * Math.PI * uniform());
}

/** Writes little-endian GGUF pieces into a growing buffer. */
class GgufWriter {
  #bytes = new Uint8Array(1 << 20);
  #view = new DataView(this.#bytes.buffer);
  length = 0;

  #room(extra: number): void {
    if (this.length + extra <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.length + extra));
    grown.set(this.#bytes);
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }

  u32(value: number): void {
    this.#room(4);
    this.#view.setUint32(this.length, value, true);
    this.length += 4;
  }

  i32(value: number): void {
    this.#room(4);
    this.#view.setInt32(this.length, value, true);
    this.length += 4;
  }

  u64(value: number): void {
    this.#room(8);
    this.#view.setBigUint64(this.length, BigInt(value), true);
    this.length += 8;
  }

  f32(value: number): void {
    this.#room(4);
    this.#view.setFloat32(this.length, value, true);
    this.length += 4;
  }

  u8(value: number): void {
    this.#room(1);
    this.#bytes[this.length++] = value;
  }

  string(text: string): void {
    const encoded = new TextEncoder().encode(text);
    this.u64(encoded.length);
    this.#room(encoded.length);
    this.#bytes.set(encoded, this.length);
    this.length += encoded.length;
  }

  pad(): void {
    while (this.length % ALIGNMENT !== 0) this.u8(0);
  }

  result(): Uint8Array {
    return this.#bytes.slice(0, this.length);
  }
}

type Value =
  | { type: 'u32' | 'f32' | 'bool' | 'string'; value: number | boolean | string }
  | { type: 'strings'; value: string[] }
  | { type: 'f32s' | 'i32s'; value: number[] };

function writeValue(writer: GgufWriter, value: Value): void {
  switch (value.type) {
    case 'u32':
      writer.u32(TYPE.uint32);
      return writer.u32(value.value as number);
    case 'f32':
      writer.u32(TYPE.float32);
      return writer.f32(value.value as number);
    case 'bool':
      writer.u32(TYPE.bool);
      return writer.u8(value.value ? 1 : 0);
    case 'string':
      writer.u32(TYPE.string);
      return writer.string(value.value as string);
    case 'strings':
      writer.u32(TYPE.array);
      writer.u32(TYPE.string);
      writer.u64(value.value.length);
      for (const item of value.value) writer.string(item);
      return;
    case 'f32s':
      writer.u32(TYPE.array);
      writer.u32(TYPE.float32);
      writer.u64(value.value.length);
      for (const item of value.value) writer.f32(item);
      return;
    case 'i32s':
      writer.u32(TYPE.array);
      writer.u32(TYPE.int32);
      writer.u64(value.value.length);
      for (const item of value.value) writer.i32(item);
  }
}

/**
 * The tiny model as GGUF bytes; `seed` picks its weights. `contextLength` is the context it says
 * it was trained for (the agent's prompts need more than the default 256; RoPE has no size of its
 * own, so the file is the same size). `pooling` makes it an embedding model, as an embedding
 * model's file says how its tokens' states are pooled into one vector (mean: llama.cpp's 1).
 */
export function tinyGguf(seed = 1, options: { contextLength?: number; pooling?: 'mean' } = {}): Uint8Array {
  const { layers, width, heads, feedForward } = TINY_GGUF_SHAPE;
  const context = options.contextLength ?? TINY_GGUF_SHAPE.context;
  const vocabulary = tinyVocabulary();
  const random = normalRandom(seed);
  const metadata: [string, Value][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: `anima-tiny-${seed}` }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['general.file_type', { type: 'u32', value: 0 }],
    ['llama.context_length', { type: 'u32', value: context }],
    ['llama.embedding_length', { type: 'u32', value: width }],
    ['llama.block_count', { type: 'u32', value: layers }],
    ['llama.feed_forward_length', { type: 'u32', value: feedForward }],
    ['llama.attention.head_count', { type: 'u32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'u32', value: heads }],
    ['llama.rope.dimension_count', { type: 'u32', value: width / heads }],
    ['llama.rope.freq_base', { type: 'f32', value: 10000 }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { type: 'u32', value: vocabulary.length }],
    ...(options.pooling === 'mean' ? ([['llama.pooling_type', { type: 'u32', value: 1 }]] as [string, Value][]) : []),
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'strings', value: vocabulary.map((token) => token.text) }],
    ['tokenizer.ggml.scores', { type: 'f32s', value: vocabulary.map((token) => token.score) }],
    ['tokenizer.ggml.token_type', { type: 'i32s', value: vocabulary.map((token) => token.type) }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: BOS }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: EOS }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: 0 }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
    // No tokenizer.chat_template: with a custom one, wllama 3.8.1 cannot constrain chat output to a schema ("Failed to initialize samplers"); its default template can.
  ];

  // Tensors as [name, dims (innermost first), values]; values fill in row order (one row per outer index).
  const tensors: [string, number[], Float32Array][] = [];
  const matrix = (inner: number, outer: number, fill: (row: number, column: number) => number) => {
    const values = new Float32Array(inner * outer);
    for (let row = 0; row < outer; row++)
      for (let column = 0; column < inner; column++) values[row * inner + column] = fill(row, column);
    return values;
  };
  const ones = (size: number) => new Float32Array(size).fill(1);
  const small = () => random() * LAYER_WEIGHT_STD;
  tensors.push([
    'token_embd.weight',
    [width, vocabulary.length],
    matrix(width, vocabulary.length, (_token, dimension) => (dimension === 0 ? CONSTANT_DIMENSION_VALUE : random())),
  ]);
  for (let layer = 0; layer < layers; layer++) {
    const block = `blk.${layer}`;
    tensors.push([`${block}.attn_norm.weight`, [width], ones(width)]);
    for (const name of ['attn_q', 'attn_k', 'attn_v', 'attn_output'])
      tensors.push([`${block}.${name}.weight`, [width, width], matrix(width, width, small)]);
    tensors.push([`${block}.ffn_norm.weight`, [width], ones(width)]);
    tensors.push([`${block}.ffn_gate.weight`, [width, feedForward], matrix(width, feedForward, small)]);
    tensors.push([`${block}.ffn_up.weight`, [width, feedForward], matrix(width, feedForward, small)]);
    tensors.push([`${block}.ffn_down.weight`, [feedForward, width], matrix(feedForward, width, small)]);
  }
  tensors.push(['output_norm.weight', [width], ones(width)]);
  // Column 0 meets the constant dimension: the token's logit bias.
  tensors.push([
    'output.weight',
    [width, vocabulary.length],
    matrix(width, vocabulary.length, (token, dimension) => (dimension === 0 ? vocabulary[token]!.logitBias : random())),
  ]);

  const writer = new GgufWriter();
  for (const byte of [0x47, 0x47, 0x55, 0x46]) writer.u8(byte);
  writer.u32(3);
  writer.u64(tensors.length);
  writer.u64(metadata.length);
  for (const [key, value] of metadata) {
    writer.string(key);
    writeValue(writer, value);
  }
  let offset = 0;
  for (const [name, dims, values] of tensors) {
    writer.string(name);
    writer.u32(dims.length);
    for (const dim of dims) writer.u64(dim);
    writer.u32(0);
    writer.u64(offset);
    offset += Math.ceil((values.length * 4) / ALIGNMENT) * ALIGNMENT;
  }
  writer.pad();
  for (const [, , values] of tensors) {
    for (const value of values) writer.f32(value);
    writer.pad();
  }
  return writer.result();
}
