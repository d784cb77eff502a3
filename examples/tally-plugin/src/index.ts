export { Tally, type TallyService, type TallyState } from './tally.js';
