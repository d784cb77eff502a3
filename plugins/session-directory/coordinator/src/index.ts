import { sessionDirectoryCoordinatorFacet } from './directory-facet';

export { sessionDirectoryCoordinatorFacet };

/** The coordinator imports the module the contract's "pi" field names and runs its default export. */
export default sessionDirectoryCoordinatorFacet;
