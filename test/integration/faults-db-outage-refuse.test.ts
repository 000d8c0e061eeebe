/**
 * A PostgreSQL outage loses no accepted work: the database refusing connections (ALLOW_CONNECTIONS false) with its backends terminated, for FAULT_OUTAGE_MS (default 30 s), while a worker sends 200 invitations and runs an ingest.
 * The scenario and what it checks: test/faults-db-outage.ts. FAULT_OUTAGE_MS=300000 runs the 5-minute case.
 */
import t from 'tap';
import { outageScenario } from '../faults-db-outage.ts';

t.test('PostgreSQL refusing connections (ALLOW_CONNECTIONS false, backends terminated): every invitation sent once, the ingest completed once', (t) => outageScenario(t, 'refuse'));
