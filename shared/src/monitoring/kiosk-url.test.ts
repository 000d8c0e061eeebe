import t from 'tap';
import { grafanaDashboardLink, kioskUrl, localKioskPath } from './kiosk-url.ts';

const KIOSK = 'kiosk&_dash.hideTimePicker=true&_dash.hideVariables=true';

t.test('the built-in link when the external one is blank', async (t) => {
  const builtIn = localKioskPath('acme-corp');
  t.equal(builtIn, '/systemhealth/kiosk/acme-corp');
  t.equal(kioskUrl({ grafana_external_link: '' }, builtIn), `/systemhealth/kiosk/acme-corp?${KIOSK}`);
  t.equal(kioskUrl({ grafana_external_link: '   ' }, builtIn), `/systemhealth/kiosk/acme-corp?${KIOSK}`);
  t.equal(kioskUrl({}, builtIn), `/systemhealth/kiosk/acme-corp?${KIOSK}`);
  t.equal(kioskUrl({ grafana_external_link: null }, builtIn), `/systemhealth/kiosk/acme-corp?${KIOSK}`);
  const grafana = grafanaDashboardLink('https://grafana.msp.example/', 'cc-system-health', 7);
  t.equal(grafana, 'https://grafana.msp.example/d/cc-system-health?orgId=7');
  t.equal(kioskUrl({ grafana_external_link: '' }, grafana), `https://grafana.msp.example/d/cc-system-health?orgId=7&${KIOSK}`);
});

t.test('the external link when set, keeping its parameters and fragment', async (t) => {
  const link = 'https://grafana.example.com/d/abc123/health?orgId=3&from=now-24h&to=now&var-customer=acme#panel-2';
  t.equal(
    kioskUrl({ grafana_external_link: ` ${link} ` }, '/systemhealth/kiosk/acme-corp'),
    `https://grafana.example.com/d/abc123/health?orgId=3&from=now-24h&to=now&var-customer=acme&${KIOSK}#panel-2`,
  );
});

t.test('kiosk switches are not doubled and kiosk=tv becomes full kiosk', async (t) => {
  const link = 'https://g.example.com/d/x?kiosk=tv&_dash.hideTimePicker=false&orgId=1&_dash.hideVariables=true';
  t.equal(kioskUrl({ grafana_external_link: link }, '/x'), `https://g.example.com/d/x?orgId=1&${KIOSK}`);
});

t.test('a link that is not http(s) counts as not set', async (t) => {
  t.equal(kioskUrl({ grafana_external_link: 'javascript:alert(1)' }, '/systemhealth/kiosk/acme-corp'), `/systemhealth/kiosk/acme-corp?${KIOSK}`);
  t.equal(kioskUrl({ grafana_external_link: 'not a url' }, '/systemhealth/kiosk/acme-corp'), `/systemhealth/kiosk/acme-corp?${KIOSK}`);
});

t.test('customer ids are encoded into the path', async (t) => {
  t.equal(localKioskPath('a/b c'), '/systemhealth/kiosk/a%2Fb%20c');
});
