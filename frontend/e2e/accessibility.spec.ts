import { axeWcagTags, findings, settled, WCAG_TAGS, type Finding } from './axe';
import { expect, signIn, test } from './fixtures';
import { go, openings, screens, seed } from './screens';

// axe-core's WCAG 2.x A and AA rules and its best practices on every route of the router, each
// in its loaded state with data, and on every dialog, menu and panel a person opens there, in a
// 1280 px window and in a 390 px one (a phone: the side menu is a menu button, the approve
// screen's decision folds away). One signed-in page walks them all (one sign-in, one set of data
// made through the API), and the findings of every screen are reported together: a new
// violation anywhere fails the suite and names its screen and width.

test('the axe tags are every WCAG 2.x A and AA tag axe-core knows, and its best practices', () => {
  expect(WCAG_TAGS).toEqual(expect.arrayContaining([...axeWcagTags(), 'best-practice']));
});

test.use({ actionTimeout: 10_000 });

for (const width of [1280, 390]) {
  test(`at ${width} px every route, dialog, menu and panel passes axe-core WCAG 2.2 A and AA and its best practices`, async ({ page, request, baseURL }) => {
    test.setTimeout(480_000);
    const narrow = width < 768;
    await page.setViewportSize({ width, height: narrow ? 844 : 800 });
    const data = await seed(request, baseURL!);
    const found: Finding[] = [];
    const check = async (screen: string) => {
      await settled(page);
      const now = await findings(page, `${width} px ${screen}`);
      // Said as they are found: a later step that fails still leaves them in the report.
      for (const f of now) console.log(`${f.screen}: ${f.rule} (${f.impact}) ${f.targets.join(' | ')}`);
      found.push(...now);
    };
    const all = screens(data);
    for (const screen of all.filter((s) => s.signedOut)) {
      await go(page, screen.path);
      await screen.ready(page);
      await check(screen.path);
    }
    await signIn(page);
    for (const screen of all.filter((s) => !s.signedOut)) {
      await go(page, screen.path);
      await screen.ready(page);
      await check(screen.path);
    }

    // Every dialog, menu and panel, open.
    for (const opening of openings(data, String(width)).filter((o) => narrow || !o.narrowOnly)) {
      await opening.open(page);
      await check(opening.name);
      await opening.close?.(page);
    }

    expect(found.map((f) => `${f.screen}: ${f.rule} (${f.impact}) ${f.targets.join(' | ')}`)).toEqual([]);
  });
}
