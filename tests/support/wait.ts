// One definition for the suites and the benchmarks (which may not import from tests/).
export { waitFor } from '../../bench/lib';
