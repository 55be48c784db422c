// Preloaded into third-party tools run by our tests (electronegativity): they may try to fetch
// translations or release lists from the internet. Our build machines have no internet and
// tests must not send traffic off the machine, so every outbound HTTP(S) request fails at once.
'use strict';
const http = require('node:http');
const https = require('node:https');

function refuse(options) {
  const host =
    typeof options === 'string' ? options : (options && (options.host || options.hostname)) || '';
  if (/^(127\.|localhost$|\[?::1\]?$)/.test(String(host))) return null;
  const error = new Error(`network access disabled in tests (${host})`);
  error.code = 'ENETUNREACH';
  return error;
}

for (const mod of [http, https]) {
  for (const name of ['request', 'get']) {
    const original = mod[name];
    mod[name] = function guarded(...args) {
      const error = refuse(args[0] instanceof URL ? args[0].hostname : args[0]);
      if (!error) return original.apply(this, args);
      const request = original.call(this, 'http://127.0.0.1:9/');
      request.destroy(error);
      return request;
    };
  }
}
