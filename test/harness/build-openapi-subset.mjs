#!/usr/bin/env node
// Cuts GitHub's official OpenAPI description (@octokit/openapi, generated/api.github.com.json)
// down to the operations the GitHub emulator serves, keeping every component they reference.
// Output: test/harness/openapi-subset.json (committed; tests never load the 13 MB original).
//
// Usage:
//   node test/harness/build-openapi-subset.mjs [path/to/api.github.com.json]
// Without an argument the script fetches the pinned @octokit/openapi tarball with `npm pack`
// (ordinary npm client, ~28 MB) into a temporary directory and extracts only that one file,
// so the 385 MB package never needs to be a dependency.
//
// To serve a new operation: add it to OPERATIONS, rerun, commit the JSON, add a handler in
// github-emulator.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OCTOKIT_OPENAPI_VERSION = '23.0.2';

/** [method, path] pairs, exactly as they appear in the description. */
export const OPERATIONS = [
  ['get', '/repos/{owner}/{repo}'],
  ['get', '/repos/{owner}/{repo}/pulls'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['put', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['delete', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['delete', '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['get', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['delete', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['get', '/repos/{owner}/{repo}/collaborators/{username}/permission'],
  ['get', '/repos/{owner}/{repo}/actions/artifacts'],
  ['get', '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}'],
  ['delete', '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}'],
  ['get', '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}'],
  ['get', '/repos/{owner}/{repo}/actions/runs'],
  ['get', '/repos/{owner}/{repo}/actions/runs/{run_id}'],
  ['get', '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts'],
];

/** Keys dropped everywhere except inside a `properties` map (where they are property names). */
const DROP_KEYS = new Set(['example', 'examples', 'description', 'externalDocs', 'x-github']);

function loadSource(arg) {
  if (arg) return JSON.parse(readFileSync(arg, 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'octokit-openapi-'));
  try {
    const out = execFileSync('npm', ['pack', `@octokit/openapi@${OCTOKIT_OPENAPI_VERSION}`, '--pack-destination', dir, '--silent'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['-xzf', join(dir, out), '-C', dir, 'package/generated/api.github.com.json']);
    return JSON.parse(readFileSync(join(dir, 'package/generated/api.github.com.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function strip(node, inProperties = false) {
  if (Array.isArray(node)) return node.map((n) => strip(n));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const key of Object.keys(node)) {
    if (!inProperties && DROP_KEYS.has(key)) continue;
    out[key] = strip(node[key], !inProperties && key === 'properties');
  }
  return out;
}

function collectRefs(node, found) {
  if (Array.isArray(node)) {
    for (const n of node) collectRefs(n, found);
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') found.add(v);
      else collectRefs(v, found);
    }
  }
}

function resolvePointer(doc, ref) {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((o, k) => {
      if (o == null || !(k in o)) throw new Error(`dangling $ref ${ref}`);
      return o[k];
    }, doc);
}

function sortKeys(node) {
  if (Array.isArray(node)) return node.map(sortKeys);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.keys(node)
      .sort()
      .map((k) => [k, sortKeys(node[k])]),
  );
}

export function buildSubset(source) {
  const paths = {};
  for (const [method, path] of OPERATIONS) {
    const item = source.paths[path];
    if (!item || !item[method]) throw new Error(`operation not in description: ${method} ${path}`);
    paths[path] ??= {};
    if (item.parameters) paths[path].parameters = item.parameters;
    paths[path][method] = item[method];
  }
  const strippedPaths = strip(paths);
  const components = {};
  const seen = new Set();
  const queue = new Set();
  collectRefs(strippedPaths, queue);
  while (queue.size > 0) {
    const [ref] = queue;
    queue.delete(ref);
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [, , kind, name] = ref.split('/');
    const value = strip(resolvePointer(source, ref));
    (components[kind] ??= {})[name] = value;
    const more = new Set();
    collectRefs(value, more);
    for (const r of more) if (!seen.has(r)) queue.add(r);
  }
  // OpenAPI requires `description` on response objects: keep a short one there.
  const describe = (responses) => {
    for (const r of Object.values(responses ?? {})) if (r && !r.$ref) r.description = r.description ?? '';
  };
  for (const path of Object.keys(strippedPaths)) for (const op of Object.values(strippedPaths[path])) if (op && op.responses) describe(op.responses);
  describe(components.responses);
  const usedTags = new Set();
  for (const item of Object.values(strippedPaths)) for (const op of Object.values(item)) if (op && op.tags) op.tags.forEach((t) => usedTags.add(t));
  return sortKeys({
    openapi: source.openapi,
    info: {
      ...source.info,
      description: undefined,
      'x-subset-of': `@octokit/openapi@${OCTOKIT_OPENAPI_VERSION} generated/api.github.com.json`,
      'x-subset-generator': 'test/harness/build-openapi-subset.mjs',
    },
    servers: source.servers,
    tags: (source.tags ?? []).filter((t) => usedTags.has(t.name)).map((t) => ({ name: t.name })),
    paths: strippedPaths,
    components,
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const source = loadSource(process.argv[2]);
  const subset = buildSubset(source);
  const target = join(dirname(fileURLToPath(import.meta.url)), 'openapi-subset.json');
  writeFileSync(target, JSON.stringify(subset, null, 1) + '\n');
  const n = Object.values(subset.components).reduce((a, c) => a + Object.keys(c).length, 0);
  console.log(`wrote ${target}: ${OPERATIONS.length} operations, ${n} components`);
}
