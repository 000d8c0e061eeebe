import t from 'tap';
import { regionOf, violationRule } from './asset-fields.ts';

t.test('region of a location', async (t) => {
  t.equal(regionOf('europe-west1-b'), 'europe-west1');
  t.equal(regionOf('northamerica-northeast1-a'), 'northamerica-northeast1');
  t.equal(regionOf('us-central1'), 'us-central1');
  t.equal(regionOf('EU'), 'EU');
  t.equal(regionOf('global'), null);
  t.equal(regionOf(null), null);
});

t.test('the first rule an asset breaks', async (t) => {
  const vm = (data: Record<string, unknown>) => violationRule({ asset_type: 'compute.googleapis.com/Instance', data });
  t.equal(vm({ networkInterfaces: [{ accessConfigs: [{ type: 'ONE_TO_ONE_NAT' }] }], serviceAccounts: [{ email: '1-compute@developer.gserviceaccount.com' }] }), 'instance-public-ip');
  t.equal(vm({ networkInterfaces: [{ accessConfigs: [] }], serviceAccounts: [{ email: '1-compute@developer.gserviceaccount.com' }] }), 'instance-default-service-account');
  t.equal(vm({ networkInterfaces: 'not a list', serviceAccounts: [{ email: 'app@p.iam.gserviceaccount.com' }] }), null);
  t.equal(violationRule({ asset_type: 'storage.googleapis.com/Bucket', data: {} }), 'bucket-uniform-access-disabled');
  t.equal(violationRule({ asset_type: 'storage.googleapis.com/Bucket', data: { iamConfiguration: { uniformBucketLevelAccess: { enabled: true } } } }), null);
  t.equal(violationRule({ asset_type: 'bigquery.googleapis.com/Dataset', data: { access: [{ role: 'READER', iamMember: 'allUsers' }] } }), 'dataset-public-access');
});
