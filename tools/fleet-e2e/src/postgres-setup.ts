export { default } from '@pi/test-support/postgres';
