/**
 * The web project's test setup (vitest.config.ts). Testing Library's async queries (findBy…, waitFor)
 * give up after 1 s by default; a lazy screen (the table's chunk) imported on a loaded 2-core machine
 * took 1,083 ms once (Home.test.tsx, session 39). They return as soon as the thing shows, so a longer
 * limit costs a passing test nothing; 5 s is only how long a broken one takes to fail.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
