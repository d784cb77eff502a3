export { sessionInteractions, sessionTokens, type SessionRouter, type SessionTokens } from './session-tokens';
