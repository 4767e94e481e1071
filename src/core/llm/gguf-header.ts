/**
 * Reads what a GGUF model file says about itself (its header: metadata and tensor shapes),
 * without reading its weights: the model manager shows a file's architecture, size, context and
 * quantisation before it is loaded, and refuses a file that is not a GGUF model with the reason.
 */

/** Reads bytes of a file (a Blob in the browser, a Buffer in tests). */
export type ByteSource = { size: number; read(start: number, end: number): Promise<Uint8Array> };

export function blobSource(blob: Blob): ByteSource {
  return { size: blob.size, read: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()) };
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: async (start, end) => bytes.subarray(start, Math.min(end, bytes.length)) };
}

export type GgufTensor = { name: string; dims: number[]; type: number };

export type GgufHeader = {
  version: number;
  /** Scalar metadata, and arrays as their length (a vocabulary is large and not needed here). */
  metadata: Map<string, string | number | boolean | bigint | { arrayLength: number }>;
  tensors: GgufTensor[];
  architecture: string;
  name: string | undefined;
  contextLength: number | undefined;
  /** The weights' type as llama.cpp names it (general.file_type), e.g. Q4_K_M. */
  quantisation: string;
  parameters: number;
  fileBytes: number;
};

/** Why a file is not a model Anima can read; the message names the place. */
export class GgufError extends Error {
  override name = 'GgufError';
}

const MAGIC = 'GGUF';
/** Headers larger than this are not a model's (the largest vocabularies take a few MB). */
const MAX_HEADER_BYTES = 64 * 2 ** 20;
const MAX_COUNT = 10_000_000;

/** llama.cpp's llama_ftype values, as its tools print them. */
const FILE_TYPES: Record<number, string> = {
  0: 'F32',
  1: 'F16',
  2: 'Q4_0',
  3: 'Q4_1',
  7: 'Q8_0',
  8: 'Q5_0',
  9: 'Q5_1',
  10: 'Q2_K',
  11: 'Q3_K_S',
  12: 'Q3_K_M',
  13: 'Q3_K_L',
  14: 'Q4_K_S',
  15: 'Q4_K_M',
  16: 'Q5_K_S',
  17: 'Q5_K_M',
  18: 'Q6_K',
  19: 'IQ2_XXS',
  20: 'IQ2_XS',
  21: 'Q2_K_S',
  22: 'IQ3_XS',
  23: 'IQ3_XXS',
  24: 'IQ1_S',
  25: 'IQ4_NL',
  26: 'IQ3_S',
  27: 'IQ3_M',
  28: 'IQ2_S',
  29: 'IQ2_M',
  30: 'IQ4_XS',
  31: 'IQ1_M',
  32: 'BF16',
  36: 'TQ1_0',
  37: 'TQ2_0',
  38: 'MXFP4_MOE',
};

/** Reads the header of a GGUF file (versions 2 and 3). */
export async function readGgufHeader(source: ByteSource): Promise<GgufHeader> {
  const reader = new HeaderReader(source);
  const magic = new TextDecoder().decode(await reader.bytes(4));
  if (magic !== MAGIC) throw new GgufError(`not a GGUF model: the file starts with "${printable(magic)}", not "GGUF"`);
  const version = await reader.u32();
  if (version !== 2 && version !== 3) throw new GgufError(`GGUF version ${version} is not supported (2 and 3 are)`);
  const tensorCount = await reader.count('tensor count');
  const metadataCount = await reader.count('metadata count');
  const metadata: GgufHeader['metadata'] = new Map();
  for (let index = 0; index < metadataCount; index++) {
    const key = await reader.string(`metadata entry ${index + 1}'s key`);
    metadata.set(key, await reader.value(await reader.u32(), key));
  }
  const tensors: GgufTensor[] = [];
  for (let index = 0; index < tensorCount; index++) {
    const name = await reader.string(`tensor ${index + 1}'s name`);
    const dimensions = await reader.u32();
    if (dimensions > 8) throw new GgufError(`tensor ${name} has ${dimensions} dimensions (at most 8)`);
    const dims: number[] = [];
    for (let dimension = 0; dimension < dimensions; dimension++) dims.push(Number(await reader.u64()));
    const type = await reader.u32();
    await reader.u64();
    tensors.push({ name, dims, type });
  }
  const architecture = metadata.get('general.architecture');
  if (typeof architecture !== 'string')
    throw new GgufError('the file does not say its architecture (general.architecture)');
  const text = (key: string) => (typeof metadata.get(key) === 'string' ? (metadata.get(key) as string) : undefined);
  const whole = (key: string) => {
    const value = metadata.get(key);
    return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;
  };
  const fileType = whole('general.file_type');
  return {
    version,
    metadata,
    tensors,
    architecture,
    name: text('general.name'),
    contextLength: whole(`${architecture}.context_length`),
    quantisation: fileType === undefined ? 'unknown' : (FILE_TYPES[fileType] ?? `type ${fileType}`),
    parameters: tensors.reduce((sum, tensor) => sum + tensor.dims.reduce((product, dim) => product * dim, 1), 0),
    fileBytes: source.size,
  };
}

function printable(text: string): string {
  return [...text].map((character) => (/[\x20-\x7e]/.test(character) ? character : '?')).join('');
}

/** Reads the header sequentially, fetching the file in chunks. */
class HeaderReader {
  #buffer: Uint8Array = new Uint8Array(0);
  #bufferStart = 0;
  #position = 0;

  constructor(readonly source: ByteSource) {}

  async bytes(length: number): Promise<Uint8Array> {
    const end = this.#position + length;
    if (end > this.source.size)
      throw new GgufError(`the file ends at byte ${this.source.size}, inside its header (a truncated download?)`);
    if (end > MAX_HEADER_BYTES)
      throw new GgufError(`the header is larger than ${MAX_HEADER_BYTES / 2 ** 20} MB: not a model file Anima reads`);
    if (end > this.#bufferStart + this.#buffer.length) {
      this.#buffer = await this.source.read(
        this.#position,
        Math.min(this.source.size, Math.max(end, this.#position + 2 ** 20)),
      );
      this.#bufferStart = this.#position;
    }
    const slice = this.#buffer.subarray(this.#position - this.#bufferStart, end - this.#bufferStart);
    this.#position = end;
    return slice;
  }

  async #view(length: number): Promise<DataView> {
    const bytes = await this.bytes(length);
    return new DataView(bytes.buffer, bytes.byteOffset, length);
  }

  async u32(): Promise<number> {
    return (await this.#view(4)).getUint32(0, true);
  }

  async u64(): Promise<bigint> {
    return (await this.#view(8)).getBigUint64(0, true);
  }

  async count(what: string): Promise<number> {
    const value = await this.u64();
    if (value > BigInt(MAX_COUNT)) throw new GgufError(`the ${what} is ${value}: not a model file Anima reads`);
    return Number(value);
  }

  async string(what: string): Promise<string> {
    const length = await this.count(`length of ${what}`);
    return new TextDecoder().decode(await this.bytes(length));
  }

  async value(type: number, key: string): Promise<string | number | boolean | bigint | { arrayLength: number }> {
    switch (type) {
      case 0:
        return (await this.#view(1)).getUint8(0);
      case 1:
        return (await this.#view(1)).getInt8(0);
      case 2:
        return (await this.#view(2)).getUint16(0, true);
      case 3:
        return (await this.#view(2)).getInt16(0, true);
      case 4:
        return this.u32();
      case 5:
        return (await this.#view(4)).getInt32(0, true);
      case 6:
        return (await this.#view(4)).getFloat32(0, true);
      case 7:
        return (await this.#view(1)).getUint8(0) !== 0;
      case 8:
        return this.string(`the value of ${key}`);
      case 9: {
        const elementType = await this.u32();
        const length = await this.count(`length of ${key}`);
        for (let index = 0; index < length; index++) await this.value(elementType, key);
        return { arrayLength: length };
      }
      case 10:
        return this.u64();
      case 11:
        return (await this.#view(8)).getBigInt64(0, true);
      case 12:
        return (await this.#view(8)).getFloat64(0, true);
      default:
        throw new GgufError(`${key} has a value of unknown type ${type}`);
    }
  }
}
