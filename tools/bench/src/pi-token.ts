/** The shared secret between the bench and its pi server; nothing secret, it only exercises the real auth path. */
export const PI_TOKEN = 'bench-token-5e2a';
