import { setupServer } from 'msw/node';
import { handlers } from '../../../src/mocks/handlers';

/** The mocks of src/mocks, answering every call of the component tests; an unmocked call fails the test. */
export const server = setupServer(...handlers);
