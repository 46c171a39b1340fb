#!/usr/bin/env python3
"""Writes scrapy-sampled.json beside this file: random pages and the links Scrapy 1.5's LinkExtractor finds on them.

The pages are well-formed HTML built from awkward pieces: hrefs relative and absolute, with escapes, entities,
spaces and non-ASCII text, other schemes, denied extensions, duplicates and fragments; anchor texts with entities,
nested elements, comments and line breaks; <base>, <area>, <map>, tables, scripts and comments holding markup.
The answer is what the link spider's extractor returns: the steps of Scrapy 1.5.2's LxmlLinkExtractor with
canonicalize=True and the original's own parser (an href stripped with str.strip(), repeats dropped by their canonical
form with fragment), repeated below over lxml, parsel and w3lib 1.18. The tests hold the Java code to every row.

Left out are the markup where the Java code differs on purpose (docs/differences.md, "Links are found by a scan"):
an `a` left open, markup inside textarea or title, and character references HTML 4 does not define or that lack
their semicolon.

    git clone https://github.com/scrapy/w3lib && git -C w3lib checkout v1.18.0
    PYTHONPATH=w3lib python3 sample_links.py               # with lxml and parsel (Debian: python3-lxml python3-parsel)
"""
import json
import os
import posixpath
import random
from urllib.parse import urljoin

import lxml.etree as etree
from parsel import Selector
from w3lib.html import get_base_url
from w3lib.url import canonicalize_url, parse_url

SAMPLES = 150
HERE = os.path.dirname(os.path.abspath(__file__))

# Scrapy 1.5's IGNORED_EXTENSIONS, the default deny_extensions
DENIED = {'.' + extension for extension in (
    'mng pct bmp gif jpg jpeg png pst psp tif tiff ai drw dxf eps ps svg mp3 wma ogg wav ra aac mid au aiff 3gp asf '
    'asx avi mov mp4 mpg qt rm swf wmv m4a m4v xls xlsx ppt pptx pps doc docx odt ods odg odp css pdf exe bin rss zip '
    'rar').split()}
XHTML = '{http://www.w3.org/1999/xhtml}'
STRING = etree.XPath('string()')

HREFS = ['a.html', '/b', '../c', './d/', '?q=1', '#top', '', ' e.html ', '\nf.html', 'g.html#frag', 'h.html?x=1&amp;y=2',
         'i.html?x=1&y=2', '&#47;j', 'k%20l', 'k l', '\u00e9.html', '/%7Euser/', 'http://other.example/x',
         'https://Other.Example:443/Y', '//proto.example/rel', 'mailto:a@b.c', 'javascript:void(0)', 'img.PNG', 'doc.pdf?x',
         'ftp://f.example/', 'HTTP://up.example/', 'page.html;jsessionid=1', 'a.html?b=2&a=1', '&lt;x&gt;', 'tab\there',
         'x&amp;y', 'y&copy;z', '&#x41;&#66;', 'http:rel.html', '#', '?', '%', 'http://h:99999/', 'https://']
TEXTS = ['Next', '', ' spaced  out ', 'caf&eacute;', '&lt;b&gt;', '<b>bold</b> text', '<img src=x alt=pic>',
         '<span>a</span><span>b</span>', 'line\nbreak', '&amp;&nbsp;x', '\u4e2d\u6587', '<!-- c -->t', '<br>after', '&#169;',
         '<i>it<b>nest</b></i>']
BLOCKS = ['<!-- <a href="commented.html">c</a> -->', '<table><tr><td><a href="td.html">td</a></td></tr></table>',
          '<noscript><a href="ns.html">n</a></noscript>', '<style>a{}</style><a href="st.html">st</a>',
          '<a\nhref="nl.html"\n>nl</a>', '<a href = "sp.html" >sp</a>', '<a href="dq.html" href="second.html">two</a>',
          '<a name=x>no href</a>', '<a href="ent.html?&#x26;x=1&#38;y">e</a>']


def anchor(rng):
    href = rng.choice(HREFS)
    quote = '"' if any(c in href for c in ' \t\n\'"') else rng.choice(['"', "'", ''])
    attributes = [rng.choice(['href', 'href', 'HREF']) + '=' + quote + href + quote]
    if rng.random() < 0.3:
        attributes.insert(rng.randint(0, 1), rng.choice(['rel="nofollow"', 'class=x', "title='t>'", 'id="a1"']))
    if rng.random() < 0.2:
        return '<area ' + ' '.join(attributes) + rng.choice(['>', '/>'])
    tag = rng.choice(['a', 'a', 'A'])
    return '<' + tag + ' ' + ' '.join(attributes) + '>' + rng.choice(TEXTS) + '</' + tag + '>'


def page(rng):
    head = '<html><head><title>T</title>'
    if rng.random() < 0.3:
        head += '<base href="' + rng.choice(['/section/', 'http://base.example/dir/', 'sub/', '../up/']) + '">'
    if rng.random() < 0.1:
        head += '<script>var s = "<a href=\'script.html\'>x</a>";</script>'
    parts = []
    for _ in range(rng.randint(0, 8)):
        pick = rng.random()
        if pick < 0.7:
            parts.append(anchor(rng))
        elif pick < 0.8:
            parts.append('<p>' + anchor(rng) + ' text</p>')
        elif pick < 0.9:
            parts.append(rng.choice(BLOCKS))
        elif pick < 0.95:
            parts.append('<div><ul><li>' + anchor(rng) + '</li></ul></div>')
        else:
            parts.append('<map name=m>' + anchor(rng) + '</map>')
    return head + '</head><body>' + '\n'.join(parts) + '</body></html>'


def unique(items, key):
    seen, kept = set(), []
    for item in items:
        if key(item) not in seen:
            seen.add(key(item))
            kept.append(item)
    return kept


def scrapy_links(html, url):
    """LxmlLinkExtractor(canonicalize=True).extract_links of a UTF-8 HtmlResponse, as [url, text] pairs."""
    base = get_base_url(html[:4096], url, 'utf-8')
    found = []
    for element in Selector(text=html, type='html').root.iter(etree.Element):
        tag = element.tag[len(XHTML):] if element.tag.startswith(XHTML) else element.tag
        if tag not in ('a', 'area') or 'href' not in element.attrib:
            continue
        try:
            # the original's own parser (crawling/spiders/lxmlhtml.py, CustomParser) strips with str.strip()
            resolved = urljoin(base, element.attrib['href'].strip())
        except ValueError:
            continue
        found.append([urljoin(url, resolved), STRING(element) or ''])
    links = []
    # and drops a repeated link by its canonical form with fragment, before the filters
    for link_url, text in unique(found, key=lambda link: canonicalize_url(link[0], keep_fragments=True)):
        if link_url.split('://', 1)[0] not in ('http', 'https', 'file'):
            continue
        if posixpath.splitext(parse_url(link_url).path)[1].lower() in DENIED:
            continue
        links.append([canonicalize_url(link_url), text])
    return unique(links, key=lambda link: link[0])


def cases(rng):
    rows = []
    while len(rows) < SAMPLES:
        url = rng.choice(['http://site.example/dir/page.html', 'https://site.example/', 'http://site.example/a/b?q=1'])
        html = page(rng)
        links = scrapy_links(html, url)
        if not any(link[0].startswith('file:') for link in links):
            rows.append({'url': url, 'html': html, 'links': [{'url': u, 'text': t} for u, t in links]})
    return rows


if __name__ == '__main__':
    with open(os.path.join(HERE, 'scrapy-sampled.json'), 'w', encoding='utf-8') as out:
        json.dump(cases(random.Random(1318)), out, indent=1)
        out.write('\n')
