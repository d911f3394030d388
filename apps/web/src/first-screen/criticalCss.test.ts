import { describe, expect, it } from 'vitest';
import { criticalCss, usedClasses } from './criticalCss';

describe('criticalCss', () => {
  const html = '<div class="m_a mantine-Group-root"><p class="m_b">x</p></div>';

  it('reads the classes of the markup', () => {
    expect([...usedClasses(html)].sort()).toEqual(['m_a', 'm_b', 'mantine-Group-root']);
  });

  it('keeps the rules of used classes and those without classes, drops the others and empty at-rules', () => {
    const css = [
      ':root{--x:1}',
      'body{margin:0}',
      '.m_a{color:red}',
      '.m_a .m_c{color:blue}',
      '.m_c{color:green}',
      '.m_a:where([data-x]),.m_c{top:0}',
      '.m_b:not(.m_c){left:0}',
      '@media (min-width:10em){.m_c{display:none}}',
      '@media (min-width:20em){.m_b{display:block}}',
      '@keyframes pulse{0%{opacity:1}to{opacity:.5}}',
    ].join('');
    const out = criticalCss(css, html);
    expect(out).toContain(':root{--x:1}');
    expect(out).toContain('body{margin:0}');
    expect(out).toContain('.m_a{color:red}');
    expect(out).not.toContain('.m_a .m_c');
    expect(out).not.toContain('color:green');
    expect(out).toContain('.m_a:where([data-x]){top:0}');
    expect(out).toContain('.m_b:not(.m_c){left:0}');
    expect(out).not.toContain('min-width:10em');
    expect(out).toContain('@media (min-width:20em){.m_b{display:block}}');
    expect(out).toContain('@keyframes pulse');
  });
});
