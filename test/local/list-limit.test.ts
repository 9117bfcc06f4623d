import { createKnap, getToken, listKnaps, startTestApi, type TestApi } from '../support/api.js';

/** What the README promises about `limit` on GET /api/studio/knap-tools. */
interface Listing {
  my_knaps: { uuid: string }[];
  organization_knaps: { org_name: string; knaps: { uuid: string }[] }[];
  public_knaps: { uuid: string }[];
  next_cursor: string | null;
}

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

test('limit: up to limit of my_knaps, and up to limit of organization_knaps and public_knaps together', async () => {
  const token = (await getToken(api.url, await api.newClient({ orgName: 'limit-org' }))).access_token;
  const visibilities = ['limit-org', 'public', 'limit-org', 'public', 'limit-org', 'public', 'private', 'private'];
  for (const [index, visibility] of visibilities.entries()) {
    api.clock.advance(1);
    const response = await createKnap(api.url, token, { name: `Knap ${index}`, visibility });
    expect(response.status).toBe(201);
  }

  const seen = { mine: 0, organization: 0, public: 0 };
  let cursor: string | null = null;
  let pages = 0;
  do {
    const response = await listKnaps(api.url, token, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as Listing;
    const organization = page.organization_knaps.flatMap((group) => group.knaps).length;
    expect(page.my_knaps.length).toBeLessThanOrEqual(2);
    expect(organization + page.public_knaps.length).toBeLessThanOrEqual(2);
    if (pages === 0) {
      // The first page is full on both sides: two of mine, and two shared ones between the two lists.
      expect(page.my_knaps).toHaveLength(2);
      expect(organization + page.public_knaps.length).toBe(2);
    }
    seen.mine += page.my_knaps.length;
    seen.organization += organization;
    seen.public += page.public_knaps.length;
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor !== null && pages < 20);

  expect(cursor).toBeNull();
  expect(seen).toEqual({ mine: 8, organization: 3, public: 3 });
});
