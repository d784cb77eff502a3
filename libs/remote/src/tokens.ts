import type { AnyExposure, ObjectExposure, Schema } from './exposure';
import { eraseExposure } from './exposure';

const ID_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
const MEMBER_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/;
/** Names tRPC reserves in a router, plus names every object inherits. */
const RESERVED_MEMBERS = new Set([
  'then',
  'call',
  'apply',
  'bind',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
]);

/** A typed identity for a service that peers may call, with the exposure that allowlists what they reach. */
export interface RemoteService<T> {
  readonly kind: 'remote-service';
  readonly id: string;
  readonly exposure: AnyExposure;
  /** Type-only marker; never set. */
  readonly __type?: (value: T) => T;
}

/** A typed identity for a service confined to its providing process: never listed, never callable remotely. */
export interface LocalService<T> {
  readonly kind: 'local-service';
  readonly id: string;
  readonly __type?: (value: T) => T;
}

/** A typed request a providing host sends to one eligible connected client, which answers with a response. */
export interface Interaction<Request, Response> {
  readonly kind: 'interaction';
  readonly id: string;
  readonly request: Schema<Request>;
  readonly response: Schema<Response>;
  /**
   * The answer is a secret (a key, a password): it crosses only in the answer frame, and no error, log or span
   * quotes it — a malformed answer is refused without saying what was wrong with it.
   */
  readonly sensitive: boolean;
}

export type ServiceToken<T> = RemoteService<T> | LocalService<T>;

export function defineRemoteService<T>(id: string, exposure: ObjectExposure<T>): RemoteService<T> {
  const erased = eraseExposure(exposure);
  for (const member of [...Object.keys(erased.methods), ...Object.keys(erased.state), ...Object.keys(erased.events)]) {
    checkMember(id, member);
  }
  return Object.freeze({ kind: 'remote-service', id: checkId(id), exposure: erased });
}

export function defineLocalService<T>(id: string): LocalService<T> {
  return Object.freeze({ kind: 'local-service', id: checkId(id) });
}

export function defineInteraction<Request, Response>(
  id: string,
  schemas: { request: Schema<Request>; response: Schema<Response>; sensitive?: boolean },
): Interaction<Request, Response> {
  return Object.freeze({
    kind: 'interaction',
    id: checkId(id),
    request: schemas.request,
    response: schemas.response,
    sensitive: schemas.sensitive === true,
  });
}

/** Ids are path segments on the wire, so they are kept to lower-case words and dashes. */
function checkId(id: string): string {
  if (!ID_PATTERN.test(id)) {
    throw new TypeError(`Invalid id "${id}": use lower-case letters, digits and dashes, starting with a letter`);
  }
  return id;
}

/** Members become path segments of the host's router, so they must be plain identifiers tRPC accepts. */
function checkMember(id: string, member: string): void {
  if (!MEMBER_PATTERN.test(member) || RESERVED_MEMBERS.has(member)) {
    throw new TypeError(`Service "${id}": "${member}" cannot be a member name (reserved or not a plain identifier)`);
  }
}
