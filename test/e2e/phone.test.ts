/**
 * Phones (390×844): the side menu folds behind a Menu button, the header keeps to two short lines and shows the
 * pickers' choices whole, and no route scrolls sideways for any demo user (tables scroll inside their box, the graph
 * fits). The admin's tour at 390 px is here; the other users' in phone-users.test.ts and phone-no-billing.test.ts,
 * and every route at 768 and 1440 px in tour-wide.test.ts: test-results/screenshots/tour-<user>-<route>-<width>.png.
 */
import t from 'tap';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { billProjects } from '../inventory-fixtures.ts';
import { signIn, startProduct, SCREENSHOT_DIR } from './harness.ts';
import { TOUR_USERS, tourPaths } from './tour.ts';
import { phoneTour } from './phone-tour.ts';

const PHONE = { width: 390, height: 844 };

t.test('phones', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;
  // an inventory, so the graph is drawn on a phone too
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);
  await syncInventory({ pool, source: localInventorySource(pool) }, 'acme-corp');
  const paths = await tourPaths(pool, { raiseTicket: true });

  await t.test('the side menu folds behind a button', async (t) => {
    const context = await browser.newContext({ viewport: PHONE });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'alice@acme.example');
    const button = page.getByRole('button', { name: 'Menu' });
    await button.waitFor();
    t.equal(await page.getByRole('navigation', { name: 'Side menu' }).count(), 0, 'the menu is folded');
    const header = (await page.locator('header').boundingBox())!;
    t.ok(header.height <= 130, `the header takes ${Math.round(header.height)} px of 844`);
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    t.ok(((await page.getByRole('heading', { name: 'Billing', level: 1 }).boundingBox())!.y) < 220, 'the page starts near the top');
    t.equal(await button.getAttribute('aria-expanded'), 'false');
    await button.click();
    t.equal(await button.getAttribute('aria-expanded'), 'true');
    const menu = page.getByRole('navigation', { name: 'Side menu' });
    await menu.waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-menu-open.png` });
    await menu.getByRole('link', { name: 'Inventory' }).click();
    await page.getByRole('heading', { name: 'Inventory', level: 1 }).waitFor();
    t.equal(await page.getByRole('navigation', { name: 'Side menu' }).count(), 0, 'choosing a page folds the menu again');
    t.equal(await page.getByRole('combobox', { name: 'Customer' }).count(), 1, 'the customer picker stays in the header');

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
    t.equal(await page.getByRole('button', { name: 'Menu' }).count(), 0, 'a wide screen shows the menu, no button');
  });

  await t.test("the header's pickers show their choices whole", async (t) => {
    const context = await browser.newContext({ viewport: PHONE });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'alice@acme.example');
    await page.getByRole('button', { name: 'Menu' }).waitFor();
    await page.getByRole('combobox', { name: 'Billing account' }).waitFor();
    // each option's text, in the select's font, against the room between its left padding and the arrow
    const fits = await page.locator('header select').evaluateAll((selects) =>
      selects.map((s) => {
        const select = s as HTMLSelectElement;
        const style = getComputedStyle(select);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = style.font;
        const box = select.getBoundingClientRect();
        const arrow = select.parentElement?.querySelector('svg')?.getBoundingClientRect();
        const room = (arrow ? arrow.left : box.right - parseFloat(style.paddingRight)) - (box.left + parseFloat(style.paddingLeft));
        const widest = Math.max(...[...select.options].map((o) => ctx.measureText(o.text).width));
        return { label: select.labels[0]?.textContent ?? '', room: Math.round(room), widest: Math.round(widest) };
      }),
    );
    await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-header-pickers.png` });
    t.equal(fits.length, 2, 'the customer and the billing account pickers');
    for (const f of fits) t.ok(f.widest <= f.room, `${f.label}: the widest choice takes ${f.widest} of ${f.room} px`);
  });

  await t.test('the inventory graph fits the screen', async (t) => {
    const context = await browser.newContext({ viewport: PHONE });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'alice@acme.example');
    // signed in: the menu button (or, on a screen without it, the side menu) is there
    await page.getByRole('button', { name: 'Menu' }).or(page.getByRole('navigation', { name: 'Side menu' })).first().waitFor();
    await page.goto(`${base}/inventory/view`);
    const graph = page.getByRole('img', { name: /^Inventory graph \(2D\)/ });
    await graph.locator('canvas').waitFor();
    const box = (await graph.boundingBox())!;
    t.ok(box.width >= 300 && box.x + box.width <= PHONE.width, `the graph is ${Math.round(box.width)} px wide, inside the screen`);
    t.equal(Math.round(box.height), Math.round(box.width), 'square');
    t.ok((await page.getByRole('list', { name: 'Node colours' }).getByRole('listitem').count()) >= 2, 'a colour legend under the graph');
    await page.waitForTimeout(3500);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-graph.png`, fullPage: true });
  });

  // the admin's tour at 390 px here; the other users' and the wider screens in their own files
  await phoneTour(t, browser, base, paths, TOUR_USERS[0]);
});
