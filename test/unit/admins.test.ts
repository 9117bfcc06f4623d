import { hashPassword, normalizeEmail, orgNameProblem, verifyPassword } from '../../shared/domain/admins.js';

describe('admin passwords', () => {
  test('kept as a salted scrypt hash: never the password, different every time, and only the password verifies', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(first).not.toContain('correct');
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery staple', first)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', first)).toBe(false);
    expect(await verifyPassword('correct horse battery staple', 'bcrypt$whatever')).toBe(false);
  });
});

describe('names', () => {
  test.each([
    ['acme', null],
    ['Acme.Corp_2-x', null],
    ['a'.repeat(64), null],
    ['', /1-64/],
    ['a'.repeat(65), /1-64/],
    ['-acme', /starting with a letter or digit/],
    ['acme corp', /letters, digits/],
    ['Private', /visibility word/],
    ['PUBLIC', /visibility word/],
  ])('organization %j', (name, problem) => {
    const found = orgNameProblem(name);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });

  test('e-mail addresses are kept lower-cased; what is not one is refused', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    for (const bad of ['ada', 'ada@', 'ada@example', 'a da@example.com', 'ada@@example.com'])
      expect(normalizeEmail(bad)).toBeNull();
  });
});
