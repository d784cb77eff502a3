import { readUpstreamHandoff } from '../src/upstream-handoff';

// What pi-session does at start, as a program of its own: `argv[2]` names another descriptor than fd 3.
const fd = process.argv[2];
const result = await readUpstreamHandoff(fd === undefined ? undefined : Number(fd));
process.stdout.write(JSON.stringify(result.isOk() ? { ok: result.value } : { err: result.error }));
