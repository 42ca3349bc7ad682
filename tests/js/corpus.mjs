// The test corpus (tests/corpus, or GOTRACE_CORPUS_DIR), its traces unpacked by
// scripts/corpus.sh before the first use.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const corpusDir = process.env.GOTRACE_CORPUS_DIR ?? path.join(root, 'tests/corpus');
if (!process.env.GOTRACE_CORPUS_DIR) execFileSync(path.join(root, 'scripts/corpus.sh'), { stdio: 'inherit' });

/** The path of a file of the corpus's go/ folder (Go 1.5-1.23 traces and Go's references). */
export const corpusPath = (name) => path.join(corpusDir, 'go', name);
