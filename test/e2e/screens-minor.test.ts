/**
 * Smaller things a user meets: a pending automatic license order warns when another order for its SKU was approved,
 * and Reject asks first; license screens write every time one way (the spec's YYYY/MM/DD HH:mm) with its zone; a
 * customer gets no project checkboxes that do nothing; User Management says who is unverified or invited; a list's
 * long title on a phone wraps beside its actions instead of lying under them. Screenshots:
 * test-results/screenshots/minor-*.png.
 */
import t from 'tap';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const TIME = /^\d{4}\/\d\d\/\d\d \d\d:\d\d P[SD]T$/;

t.test('smaller screen fixes', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;
  await pool.query(
    `INSERT INTO license (customer_id, sku_id, sku_name, volume_total, volume_available, threshold, auto_order)
     VALUES ('acme-corp', '1010020028', 'Google Workspace Business Standard', 50, 8, 10, true)`,
  );
  // a manual order approved after the automatic one was placed
  await pool.query(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, comment, status, order_time, auto_episode)
     VALUES ('acme-corp', '1010020028', 'Google Workspace Business Standard', 4, 'auto-order', 'Automatic order', 'Pending', now() - interval '2 hours', 0)`,
  );
  await pool.query(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, status, order_time, decided_by, decided_at)
     VALUES ('acme-corp', '1010020028', 'Google Workspace Business Standard', 5, 'alice@acme.example', 'Fulfilled', now() - interval '3 hours', 'admin@commandcenter.local', now() - interval '1 hour')`,
  );

  const admin = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  t.teardown(() => admin.context().close());
  await signIn(admin, base, 'admin@commandcenter.local');
  await admin.getByRole('navigation', { name: 'Side menu' }).waitFor();

  await t.test('licenses: the pending automatic order warns; Reject asks first; one time format', async (t) => {
    await admin.goto(`${base}/workspacelicense`);
    await admin.getByRole('tab', { name: 'Orders' }).click();
    const times = admin.getByRole('row').locator('td:first-child, th[scope="row"]:first-child');
    await admin.getByRole('row').filter({ hasText: 'auto-order' }).waitFor();
    const shown = (await times.allInnerTexts()).map((s) => s.trim()).filter(Boolean);
    t.ok(shown.length >= 2 && shown.every((s) => TIME.test(s)), `order times in the spec's format with the zone: ${shown.join(', ')}`);
    await admin.getByRole('row').filter({ hasText: 'auto-order' }).getByRole('button', { name: /^Manage Order/ }).click();
    await admin.getByText('Another order for this SKU was approved').waitFor();
    t.match(await admin.getByText(/alice@acme\.example ordered 5 on/).innerText(), /now Fulfilled: check this order is still needed/);
    await admin.waitForTimeout(400);
    const title = admin.getByRole('heading', { name: 'Order of 4 Google Workspace Business Standard', level: 2 });
    const size = await title.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    t.ok(size <= 20, `the card title is a section heading (${size} px), not a second page title`);
    t.ok((await title.boundingBox())!.height <= 2 * size, 'on one line');
    await admin.screenshot({ path: `${SCREENSHOT_DIR}/minor-license-warning.png`, fullPage: true });
    await admin.getByRole('button', { name: 'Reject' }).click();
    const confirm = admin.getByRole('alertdialog', { name: 'Reject this order?' });
    await confirm.waitFor();
    t.pass('Reject asks first');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    const { rows } = await pool.query(`SELECT status FROM license_order WHERE order_by = 'auto-order'`);
    t.same(rows, [{ status: 'Pending' }], 'cancelled: nothing rejected');
  });

  await t.test('User Management shows unverified and invited users', async (t) => {
    await admin.goto(`${base}/usermanagement`);
    const row = admin.getByRole('row').filter({ hasText: 'pending@acme.example' });
    await row.waitFor();
    t.match(await row.innerText(), /Unverified|Invited/, 'pending@acme.example is marked');
    t.notMatch(await admin.getByRole('row').filter({ hasText: 'alice@acme.example' }).first().innerText(), /Unverified|Invited/, 'alice is not');
    await admin.screenshot({ path: `${SCREENSHOT_DIR}/minor-users.png`, fullPage: true });
  });

  await t.test('projects: budget as money, who asked and when; no checkboxes for a customer', async (t) => {
    await pool.query(
      `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number, project_type, project_template, project_name)
       VALUES ('acme-corp', 'alice@acme.example', 'retail', 'webshop', 'prod', 'alice', 'Standard', 'Web', '123', 'web',
               '{"project_type":"web","default_admin":"alice@acme.example","budget":1000,"owner_label":"owner","project_name":"acme-{bu}-{product}-{env}","quota":{"bigquery_analysis":1,"compute_engine_cpus":2}}',
               'acme-retail-webshop-prod')`,
    );
    const alice = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    t.teardown(() => alice.context().close());
    await signIn(alice, base, 'alice@acme.example');
    await alice.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Project Provisioning' }).click();
    await alice.getByRole('heading', { name: 'Project Provisioning', level: 1 }).waitFor();
    await alice.getByRole('button', { name: 'New', exact: true }).waitFor();
    const row = alice.getByRole('row').filter({ hasText: 'acme-retail-webshop-prod' });
    await row.waitFor();
    t.match(await row.innerText(), /Budget: €1,000\.00 per month/, 'the budget as the form writes it');
    t.match(await row.innerText(), /alice@acme\.example\s+\d{4}\/\d\d\/\d\d \d\d:\d\d P[SD]T/, 'requested by and at');
    await alice.screenshot({ path: `${SCREENSHOT_DIR}/minor-provisioning-customer.png`, fullPage: true });
    t.equal(await alice.getByRole('checkbox').count(), 0, 'no selection for a customer');
    await admin.goto(`${base}/projectprovisioning`);
    await admin.getByRole('checkbox', { name: 'Select all rows on this page' }).waitFor();
    t.pass('the admin selects rows to decide on');
  });

  await t.test('a customer without templates is told why there is no form', async (t) => {
    const bob = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    t.teardown(() => bob.context().close());
    await signIn(bob, base, 'bob@initech.example');
    await bob.getByRole('navigation', { name: 'Side menu' }).waitFor();
    await bob.goto(`${base}/projectprovisioning/new`);
    await bob.getByText('Initech has no project templates yet').waitFor();
    t.equal(await bob.getByRole('main').getByRole('combobox').count(), 0, 'no empty required selects');
    await bob.screenshot({ path: `${SCREENSHOT_DIR}/minor-no-templates.png`, fullPage: true });
  });

  await t.test('a long list title on a phone: the actions never lie over it', async (t) => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    t.teardown(() => phone.context().close());
    await signIn(phone, base, 'alice@acme.example');
    await phone.getByRole('button', { name: 'Menu' }).waitFor();
    // Anomaly Detection's title names the day and the billing account: the longest list title
    await phone.goto(`${base}/anomalydetection`);
    const title = phone.getByRole('heading', { level: 2, name: /Billing account/ });
    await title.waitFor();
    const filter = phone.getByRole('textbox', { name: /Filter/ }).first();
    await filter.waitFor();
    await phone.screenshot({ path: `${SCREENSHOT_DIR}/minor-list-title-phone.png` });
    // the title's text (its line boxes, not its grid cell) against the Filter box
    const words = await title.evaluate((h) => {
      const range = document.createRange();
      range.selectNodeContents(h);
      return [...range.getClientRects()].map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom }));
    });
    const box = (await filter.boundingBox())!;
    const under = words.filter((r) => r.right > box.x + 0.5 && r.left < box.x + box.width - 0.5 && r.bottom > box.y + 0.5 && r.top < box.y + box.height - 0.5);
    t.equal(under.length, 0, `no line of the title under the Filter (${words.length} lines, the Filter from x ${Math.round(box.x)})`);
  });
});
