import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server saw of a request: its JSON body, its address (path and query) and its Authorization header. */
export type ServerRequest = { body: Record<string, unknown>; url: string; authorization?: string };

/**
 * What the test server answers to one request: a completion's text, an HTTP error (its body may
 * echo the request, as some servers echo a key they refuse), or nothing ever (a server that hangs).
 */
export type ServerReply =
  | { text: string; promptTokens?: number; completionTokens?: number }
  | { status: number; body: string | ((request: ServerRequest) => string) }
  | { isSilent: true };

/** What the server answers to an embeddings request: a vector per input text, or an HTTP error. */
export type EmbeddingsReply = number[][] | { status: number; body: string | ((request: ServerRequest) => string) };

/**
 * A local HTTP server that speaks the OpenAI chat-completions protocol (plain and streamed), for
 * testing the openai-compatible provider and the CLI end to end without the network. It answers
 * with its script, in order, and keeps each request's JSON body and headers. Given `embeddings`,
 * it answers `/v1/embeddings` too, with what that function makes of the request's input (once
 * its promise settles, so a test can hold an answer back).
 */
export async function startOpenAiServer(
  script: ServerReply[],
  options: {
    embeddings?: (input: string[], request: ServerRequest) => EmbeddingsReply | Promise<EmbeddingsReply>;
  } = {},
): Promise<{ baseUrl: string; requests: ServerRequest[]; close: () => Promise<void> }> {
  const requests: ServerRequest[] = [];
  const server: Server = createServer(async (request, response) => {
    // A page of another origin (the app in a browser test) may call it: every answer allows that, and a preflight gets no body.
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.setHeader(name, value);
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    const seen: ServerRequest = {
      body,
      url: request.url ?? '',
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    };
    requests.push(seen);
    if (seen.url.split('?')[0] === '/v1/embeddings' && options.embeddings) {
      const input = typeof body.input === 'string' ? [body.input] : (body.input as string[]);
      const answer = await options.embeddings(input, seen);
      if (!Array.isArray(answer))
        return void response
          .writeHead(answer.status, { 'content-type': 'application/json' })
          .end(typeof answer.body === 'string' ? answer.body : answer.body(seen));
      const data = answer.map((embedding, index) => ({ object: 'embedding', index, embedding }));
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    }
    const reply =
      seen.url.split('?')[0] === '/v1/chat/completions'
        ? script.shift()
        : { status: 404, body: '{"error":{"message":"no such route"}}' };
    if (!reply) return void response.writeHead(500).end('{"error":{"message":"the test server has no more replies"}}');
    if ('isSilent' in reply) return;
    if ('status' in reply)
      return void response
        .writeHead(reply.status, { 'content-type': 'application/json' })
        .end(typeof reply.body === 'string' ? reply.body : reply.body(seen));
    const usage = { prompt_tokens: reply.promptTokens ?? 10, completion_tokens: reply.completionTokens ?? 5 };
    if (body.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // Split mid-token, the way networks split.
      for (const piece of reply.text.match(/.{1,7}/gs) ?? [])
        response.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
      response.write(
        `data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })}\n\ndata: ${JSON.stringify({ choices: [], usage })}\n\ndata: [DONE]\n\n`,
      );
      return void response.end();
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        choices: [{ message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
        usage,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'content-type, authorization',
  'access-control-allow-methods': 'POST, OPTIONS',
};

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}
