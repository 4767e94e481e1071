import { describe, expect, it } from 'vitest';
import { GGUF_RECOMMENDATIONS, type GgufModelView, ggufRecommendationUrl } from '#core/api.ts';
import {
  describeAdd,
  describeGgufChoice,
  describeGgufDelete,
  fileNameOfUrl,
  ggufContextText,
  ggufDeleteQuestion,
  ggufName,
  ggufProgressPercent,
  ggufProgressText,
  ggufTitle,
  ggufUnavailableText,
  isGgufInUse,
  isRecommendationAdded,
  memoryText,
  recommendationFacts,
  sourceText,
  urlProblem,
} from './gguf-messages.ts';
import { parametersText } from './model-size-words.ts';

const SMOL_URL =
  'https://huggingface.co/bartowski/SmolLM2-135M-Instruct-GGUF/resolve/main/SmolLM2-135M-Instruct-Q8_0.gguf';

const SMOL: GgufModelView = {
  id: 'smollm2-135m-instruct-q8_0.gguf',
  engine: 'gguf',
  fileName: 'SmolLM2-135M-Instruct-Q8_0.gguf',
  sizeBytes: 145 * 2 ** 20,
  architecture: 'llama',
  name: 'SmolLM2 135M Instruct',
  contextLength: 8192,
  quantisation: 'Q8_0',
  parameters: 134_515_008,
  source: { kind: 'url', url: SMOL_URL },
  addedAt: 1,
  memoryBytes: 1.2 * 2 ** 30,
};

describe('the recommended GGUF models', () => {
  const [smallest] = GGUF_RECOMMENDATIONS;

  it('give the download size as Hugging Face lists it, the memory, the speed and the size', () => {
    expect(recommendationFacts(smallest)).toEqual([
      { name: 'Download', value: '386 MB' },
      // 1.1 times the file, and 0.1 MB a token of the engine's 4,096-token context.
      { name: 'Memory needed', value: 'about 834 MB' },
      { name: 'Speed', value: 'fast on the CPU (under 1B parameters)' },
      { name: 'Size', value: '362M parameters, Q8_0' },
    ]);
    expect(recommendationFacts(GGUF_RECOMMENDATIONS.at(-1)!)[0]).toEqual({ name: 'Download', value: '2.39 GB' });
  });

  it('count as added when a model came from their address or has their file name', () => {
    const fromAddress = {
      ...SMOL,
      fileName: 'x.gguf',
      source: { kind: 'url' as const, url: ggufRecommendationUrl(smallest) },
    };
    expect(isRecommendationAdded(smallest, [SMOL])).toBe(false);
    expect(isRecommendationAdded(smallest, [fromAddress])).toBe(true);
    expect(isRecommendationAdded(smallest, [{ ...SMOL, fileName: smallest.fileName, source: { kind: 'file' } }])).toBe(
      true,
    );
  });
});

describe("a GGUF model's facts", () => {
  it('is named by the name its file gives, else by its file name', () => {
    expect(ggufName(SMOL)).toBe('SmolLM2 135M Instruct');
    expect(ggufTitle(SMOL)).toBe('SmolLM2 135M Instruct (SmolLM2-135M-Instruct-Q8_0.gguf)');
    const { name: _name, ...nameless } = SMOL;
    expect(ggufName(nameless)).toBe('SmolLM2-135M-Instruct-Q8_0.gguf');
    expect(ggufTitle({ ...SMOL, name: '  ' })).toBe('SmolLM2-135M-Instruct-Q8_0.gguf');
  });

  it('says its parameters the way model names do', () => {
    expect(parametersText(134_515_008)).toBe('135M');
    expect(parametersText(361_821_120)).toBe('362M');
    expect(parametersText(494_032_768)).toBe('494M');
    expect(parametersText(1_100_048_384)).toBe('1.1B');
    expect(parametersText(3_212_749_824)).toBe('3.2B');
    expect(parametersText(999_960_000)).toBe('1B');
    expect(parametersText(12_000_000_000)).toBe('12B');
    expect(parametersText(128_512)).toBe('129K');
    expect(parametersText(640)).toBe('640');
  });

  it('says its context, the memory it needs loaded and where it came from', () => {
    expect(ggufContextText(SMOL)).toBe('8,192 tokens');
    expect(ggufContextText({})).toBe('not given');
    expect(memoryText(SMOL)).toBe('about 1.2 GB');
    expect(sourceText(SMOL)).toBe(SMOL_URL);
    expect(sourceText({ source: { kind: 'file' } })).toBe('a file picked on this device');
  });

  it('says why the CPU engine cannot run here, as one sentence', () => {
    expect(ggufUnavailableText('the CPU engine (llama.cpp in WebAssembly) runs only in the browser')).toBe(
      'The CPU engine cannot run here: the CPU engine (llama.cpp in WebAssembly) runs only in the browser.',
    );
    expect(ggufUnavailableText(undefined)).toBe('The CPU engine cannot run here.');
  });

  it('marks a model in use only when runs bind the CPU engine with it', () => {
    expect(isGgufInUse(SMOL, { provider: 'gguf', ggufModel: SMOL.id })).toBe(true);
    expect(isGgufInUse(SMOL, { provider: 'webllm', ggufModel: SMOL.id })).toBe(false);
    expect(isGgufInUse(SMOL, { provider: 'gguf', ggufModel: 'other.gguf' })).toBe(false);
    expect(isGgufInUse(SMOL, undefined)).toBe(false);
  });
});

describe('adding a model', () => {
  it('takes only whole http(s) addresses', () => {
    expect(urlProblem('https://huggingface.co/x/resolve/main/model.gguf')).toBeUndefined();
    expect(urlProblem(' http://localhost:8000/model.gguf ')).toBeUndefined();
    expect(urlProblem('  ')).toBe('Enter the address of a .gguf file.');
    expect(urlProblem('huggingface.co/model.gguf')).toBe('Enter a whole address, starting with https://.');
    expect(urlProblem('ftp://example.org/model.gguf')).toBe('Enter an http(s) address.');
    expect(urlProblem(`https://example.org/${'a'.repeat(2000)}`)).toBe('The address is longer than 2,000 characters.');
  });

  it('names an addition from an address by its file', () => {
    expect(fileNameOfUrl('https://huggingface.co/a/b/resolve/main/Qwen2.5-0.5B%20Q4.gguf?download=true')).toBe(
      'Qwen2.5-0.5B Q4.gguf',
    );
    expect(fileNameOfUrl('https://example.org/')).toBe('example.org');
    expect(fileNameOfUrl('https://example.org/%E0%A4%A.gguf')).toBe('%E0%A4%A.gguf');
  });

  it('shows its progress in bytes, and as a percentage when the total is known', () => {
    expect(ggufProgressText(undefined)).toBe('Starting…');
    expect(ggufProgressText({ phase: 'downloading', bytesWritten: 12 * 2 ** 20, totalBytes: 40 * 2 ** 20 })).toBe(
      'Downloading: 12 MB of 40 MB (30%)',
    );
    expect(ggufProgressText({ phase: 'storing', bytesWritten: 3 * 2 ** 20 })).toBe('Storing the file: 3 MB so far');
    expect(ggufProgressPercent({ phase: 'storing', bytesWritten: 3 })).toBeUndefined();
    expect(ggufProgressPercent({ phase: 'storing', bytesWritten: 50, totalBytes: 40 })).toBe(100);
  });

  it("says it added the model, was cancelled, or why not, in the agent's words", () => {
    expect(describeAdd({ ok: true, model: SMOL }, 'x')).toEqual({
      tone: 'success',
      message: 'Added SmolLM2 135M Instruct (SmolLM2-135M-Instruct-Q8_0.gguf): it runs on the CPU, offline too.',
    });
    expect(
      describeAdd(
        { ok: false, cancelled: true, problems: [{ message: 'adding big.gguf was cancelled; nothing was kept' }] },
        'big.gguf',
      ),
    ).toEqual({
      tone: 'cancelled',
      message: 'Adding big.gguf was cancelled; nothing was kept.',
    });
    const notModel = 'page.html: not a GGUF model: the file starts with "<htm", not "GGUF"';
    expect(describeAdd({ ok: false, problems: [{ message: notModel }] }, 'page.html')).toEqual({
      tone: 'failure',
      message: 'The model was not added:',
      problems: [notModel],
    });
  });
});

describe('deleting and choosing a model', () => {
  it('asks before a deletion, and warns when runs use the model', () => {
    expect(ggufDeleteQuestion(SMOL, false)).toBe(
      'Delete SmolLM2 135M Instruct (SmolLM2-135M-Instruct-Q8_0.gguf)? Its file leaves this device; using it again means adding it again.',
    );
    expect(ggufDeleteQuestion(SMOL, true)).toContain('they use the symbolic engine alone');
  });

  it('says a deletion happened, or why not', () => {
    expect(describeGgufDelete({ ok: true, id: SMOL.id }, SMOL).message).toBe(
      'Deleted SmolLM2 135M Instruct (SmolLM2-135M-Instruct-Q8_0.gguf) from this device.',
    );
    expect(describeGgufDelete({ ok: false, problems: [{ message: 'there is no GGUF model x' }] }, SMOL)).toEqual({
      tone: 'failure',
      message: 'SmolLM2 135M Instruct was not deleted:',
      problems: ['there is no GGUF model x'],
    });
  });

  it('says runs bind the chosen model, or why not', () => {
    expect(
      describeGgufChoice(
        { ok: true, settings: { provider: 'gguf', ggufModel: SMOL.id, limits: {}, confidenceCap: 0.7 } },
        SMOL,
      ).message,
    ).toBe('Runs now bind SmolLM2 135M Instruct (CPU engine). Your limits and other settings stay as they were.');
    expect(
      describeGgufChoice(
        { ok: false, problems: [{ path: 'ggufModel', message: 'choose a GGUF model (add one on the Models screen)' }] },
        SMOL,
      ),
    ).toMatchObject({
      problems: ['choose a GGUF model (add one on the Models screen)'],
    });
  });
});
