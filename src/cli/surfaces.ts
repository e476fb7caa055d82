// Where `phuc-loop init` proposes rung 65537 with security.paraphrase (docs/init.md): a project whose
// folders or files are named as a security or API surface (auth, crypto, api, routes, an OpenAPI or
// protobuf file), at its root or one level into its usual source folders. Names only: init reads no code.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const SECURITY = /^(?:auth|authn|authz|oauth2?|oidc|saml|jwt|security|crypto|permissions?|acl|rbac|secrets?|sessions?|login)(?:[._-]|$)/i;
const API = /^(?:api|apis|routes?|router|controllers?|endpoints?|handlers?|openapi|swagger|graphql|rpc|grpc|proto)(?:[._-]|$)|\.(?:proto|graphql|gql)$/i;
/** Folders a project keeps its code in, looked into one level deep. */
const SOURCE = ['src', 'lib', 'app', 'pkg', 'internal', 'server'];
const SHOWN = 4;

const namesIn = async (dir: string) => (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => !e.name.startsWith('.'));

/** The security and API surfaces named in `dir` (relative paths, at most a few), empty when none. */
export async function securitySurfaces(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const e of await namesIn(dir)) {
    if (SECURITY.test(e.name) || API.test(e.name)) found.push(e.name);
    if (e.isDirectory() && SOURCE.includes(e.name))
      for (const f of await namesIn(join(dir, e.name))) if (SECURITY.test(f.name) || API.test(f.name)) found.push(`${e.name}/${f.name}`);
  }
  return found.sort().slice(0, SHOWN);
}
