/** The part of sparql-http-client 3.1 Anima uses (the package ships no types). */
declare module 'sparql-http-client/SimpleClient.js' {
  export default class SimpleClient {
    constructor(options: {
      endpointUrl: string;
      headers?: Record<string, string>;
      fetch?: (url: string | URL, init: RequestInit) => Promise<Response>;
    });
    get(query: string): Promise<Response>;
    postUrlencoded(query: string): Promise<Response>;
  }
}
