import { describe, expect, it } from 'vitest';
import { err, ok } from 'neverthrow';
import type { ReplicaRegistry } from '@pi/session-repo';
import { namesWildcardHost, replicaPeers } from './replica-peers';

/** A replica registry of shared records, in memory; `failing` makes every call a storage error. */
function sharedRecords(urls: string[], failing = false) {
  const calls: string[] = [];
  const failure = err({ code: 'storage' as const, message: 'the server is gone' });
  const replicas: ReplicaRegistry = {
    announce: async (url) => {
      calls.push(`announce ${url}`);
      if (failing) return failure;
      if (!urls.includes(url)) urls.push(url);
      return ok(undefined);
    },
    withdraw: async (url) => {
      calls.push(`withdraw ${url}`);
      urls.splice(urls.indexOf(url), 1);
      return ok(undefined);
    },
    list: async () => (failing ? failure : ok([...urls].sort())),
  };
  return { replicas, calls };
}

describe('the replicas a coordinator hands to the sessions it starts', () => {
  it('are the --replica flags and the others announced in the shared records; its own URL is announced, then withdrawn', async () => {
    const shared = sharedRecords(['wss://b:7443/']);
    const told: Array<readonly string[]> = [];
    const peers = await replicaPeers(
      shared.replicas,
      'wss://a:7443/',
      ['wss://c:7443/'],
      () => undefined,
      (others) => told.push(others),
    );
    expect(peers.others()).toEqual(['wss://c:7443/', 'wss://b:7443/']);
    // What the sessions connected to it are told: the flags at once, then what the records said.
    expect(told).toEqual([['wss://c:7443/'], ['wss://c:7443/', 'wss://b:7443/']]);
    await peers.stop();
    expect(shared.calls).toEqual(['announce wss://a:7443/', 'withdraw wss://a:7443/']);
  });

  it('does not announce a URL with a wildcard host, which no other host can dial', async () => {
    const shared = sharedRecords(['wss://b:7443/']);
    const peers = await replicaPeers(shared.replicas, 'wss://0.0.0.0:7443/', [], () => undefined);
    expect(peers.others()).toEqual(['wss://b:7443/']);
    await peers.stop();
    expect(shared.calls).toEqual([]);
  });

  it('are the flags alone on records no other coordinator shares (SQLite), or when the records cannot be read', async () => {
    const alone = await replicaPeers(undefined, 'wss://a:7443/', ['wss://c:7443/'], () => undefined);
    expect(alone.others()).toEqual(['wss://c:7443/']);
    const said: string[] = [];
    const failing = await replicaPeers(sharedRecords([], true).replicas, 'wss://a:7443/', [], (line) =>
      said.push(line),
    );
    expect(failing.others()).toEqual([]);
    expect(said).toEqual(['cannot announce wss://a:7443/ to the other replicas: the server is gone']);
    await failing.stop();
  });
});

describe('a listener URL naming the wildcard address', () => {
  it('is every spelling of 0.0.0.0 and ::, with or without a port or path', () => {
    const wildcards = [
      'wss://0.0.0.0:7443/',
      'ws://0.0.0.0/sessions',
      'wss://0.0.0.0',
      'WSS://0.0.0.0:7443/',
      'wss://0:7443/',
      'wss://user:secret@0.0.0.0:7443/',
      'wss://[::]:7443/',
      'wss://[::]',
      'wss://[0:0:0:0:0:0:0:0]:7443/',
      'wss://:::7443/',
      'wss://::/',
    ];
    expect(wildcards.filter((url) => !namesWildcardHost(url))).toEqual([]);
  });

  it('is not a URL naming one host', () => {
    const hosts = [
      'wss://build-7:7443/',
      'wss://127.0.0.1:7443/',
      'wss://10.0.0.0/',
      'wss://0.0.0.0.nip.io:7443/',
      'wss://[::1]:7443/',
      'wss://::1:7443/',
      'https://0.0.0.0/',
      'not a url',
    ];
    expect(hosts.filter((url) => namesWildcardHost(url))).toEqual([]);
  });
});
