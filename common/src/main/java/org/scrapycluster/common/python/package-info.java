/**
 * What Python does that Java does otherwise, for the code that reads what the original read with Python: the
 * character classes of its regular expressions, and the number it reads from a text.
 */
package org.scrapycluster.common.python;
