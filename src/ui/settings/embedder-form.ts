import type { AgentApi } from '#core/api.ts';

type EmbedderChoice = NonNullable<Awaited<ReturnType<AgentApi['embedderGet']>>['embedder']>;

/** The embedder as the form holds it: a provider (none: hypervectors), and a model for each provider. */
export type EmbedderForm = {
  provider: 'none' | EmbedderChoice['provider'];
  endpointModel: string;
  ggufModel: string;
  webllmModel: string;
};

export const EMBEDDER_READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change settings: close it to change the embedder here.';

export function formOf(choice: EmbedderChoice | undefined): EmbedderForm {
  return {
    provider: choice?.provider ?? 'none',
    endpointModel: choice?.provider === 'openai-compatible' ? choice.model : '',
    ggufModel: choice?.provider === 'gguf' ? choice.model : '',
    webllmModel: choice?.provider === 'webllm' ? choice.model : '',
  };
}

/** What the form asks the agent for: null unbinds the embedder. */
export function choiceOf(form: EmbedderForm): EmbedderChoice | null {
  if (form.provider === 'none') return null;
  const model = { 'openai-compatible': form.endpointModel, gguf: form.ggufModel, webllm: form.webllmModel };
  return { provider: form.provider, model: model[form.provider] };
}

export type EmbedderSaveReport =
  { tone: 'success'; message: string } | { tone: 'failure'; message: string; problems: string[] };

export function describeSave(result: Awaited<ReturnType<AgentApi['embedderSet']>>): EmbedderSaveReport {
  if (!result.ok)
    return {
      tone: 'failure',
      message: 'The embedder was not changed:',
      problems: result.problems.map((problem) => problem.message),
    };
  return {
    tone: 'success',
    message: result.embedder
      ? `Saved: recall and similarity use the embeddings of ${result.embedder.model} from the next run.`
      : 'Saved: no embedder; recall and similarity compare by hypervectors.',
  };
}

/** A check's outcome in words: the vectors' size and how alike "a cat" and "a kitten" came out. */
export function describeCheck(result: Awaited<ReturnType<AgentApi['embedderCheck']>>): EmbedderSaveReport {
  if (!result.ok)
    return {
      tone: 'failure',
      message: 'The embedder did not answer:',
      problems: result.problems.map((problem) => problem.message),
    };
  const { model, dimensions, similarity } = result.check;
  return {
    tone: 'success',
    message: `${model} answered: vectors of ${dimensions} numbers; "a cat" and "a kitten" are ${similarity.toFixed(2)} alike.`,
  };
}
