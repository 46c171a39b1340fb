/**
 * What Python does that Java does otherwise, for the code that reads what the original read with Python: the
 * character classes of its regular expressions.
 */
package org.scrapycluster.common.python;
