import { PROVISIONAL_TITLE, sessionDirectoryCoordinatorFacet } from './directory-facet';

export { PROVISIONAL_TITLE, sessionDirectoryCoordinatorFacet };

/** The coordinator imports the module the contract's "pi" field names and runs its default export. */
export default sessionDirectoryCoordinatorFacet;
