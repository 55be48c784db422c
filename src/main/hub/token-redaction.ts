/**
 * Counter tokens kept out of the log. Tokens issued before a restart are kept as hashes only:
 * the log asks about any token-shaped stretch of a line (hashed, compared in memory), so that no
 * counter can log another's token.
 */
import type { Redactor } from '#main/logging/redact';
import type { Db } from '#main/store/database';
import { listPairedCounterTokenHashes } from '#main/store/paired-counters-repo';
import { TOKEN_ALPHABET, TOKEN_LENGTH, tokenSha256 } from './counter-registry';

export interface TokenRedaction {
  /** A token just issued: the log hides it from now on. */
  issued(db: Db, token: string): void;
}

export function redactCounterTokens(
  redactor: Pick<Redactor, 'addSecret' | 'addRecognizer'>,
  currentDb: () => Db,
): TokenRedaction {
  let tokenHashes: { readonly db: Db; readonly hashes: Set<string> } | null = null;
  function tokenHashesOf(db: Db): Set<string> {
    if (tokenHashes?.db !== db) {
      tokenHashes = { db, hashes: new Set(listPairedCounterTokenHashes(db)) };
    }
    return tokenHashes.hashes;
  }
  redactor.addRecognizer({
    length: TOKEN_LENGTH,
    alphabet: TOKEN_ALPHABET,
    isSecret(candidate) {
      let hashes: Set<string>;
      try {
        hashes = tokenHashesOf(currentDb());
      } catch {
        return false; // no database now (switching, closed): no counter can call either
      }
      return hashes.size > 0 && hashes.has(tokenSha256(candidate));
    },
  });
  return {
    issued(db, token) {
      redactor.addSecret(token);
      tokenHashesOf(db).add(tokenSha256(token));
    },
  };
}
