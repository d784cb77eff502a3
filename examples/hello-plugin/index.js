// @ts-check
export { Greeting } from './contract.js';
