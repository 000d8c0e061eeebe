/**
 * A PostgreSQL outage loses no accepted work: the TCP proxy between the worker and PostgreSQL killed for FAULT_OUTAGE_MS (default 30 s): connections cut, new ones refused, while a worker sends 200 invitations and runs an ingest.
 * The scenario and what it checks: test/faults-db-outage.ts. FAULT_OUTAGE_MS=300000 runs the 5-minute case.
 */
import t from 'tap';
import { outageScenario } from '../faults-db-outage.ts';

t.test('PostgreSQL unreachable (proxy killed): every invitation sent once, the ingest completed once', (t) => outageScenario(t, 'proxy'));
