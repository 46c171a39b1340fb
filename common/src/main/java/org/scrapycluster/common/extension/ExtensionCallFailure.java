package org.scrapycluster.common.extension;

/**
 * A call of an extension that failed on one piece of work (a request, an item): it threw (its cause), returned no
 * future, or its future failed or completed with nothing. It names the extension as the log says it
 * ({@code downloader middleware robots in beforeRequest}), the kind its failures are counted under
 * ({@code crawler_errors_total{kind}}) and the URL of the work, so that the service counts it and logs it once per kind
 * ({@link ExtensionFailureLog}) whichever extension it was, and says whether it was {@link #bug() a bug} or the
 * extension's "not now".
 */
public abstract class ExtensionCallFailure extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String kind;
    private final String extension;
    private final String url;
    private final boolean bug;

    /**
     * @param kind      the kind its failures are counted under ({@code middleware}, {@code pipeline})
     * @param extension the extension and its call, as the log names them
     * @param url       the URL of the work
     * @param message   what happened, naming the extension
     * @param cause     what it threw, or null when it returned nothing
     * @param bug       whether it threw or answered nothing, rather than failing the future it returned
     */
    protected ExtensionCallFailure(String kind, String extension, String url, String message, Throwable cause, boolean bug) {
        super(message, cause);
        this.kind = kind;
        this.extension = extension;
        this.url = url;
        this.bug = bug;
    }

    /**
     * Whether the call threw, returned no future or completed its future with nothing: a bug, which a later try of the
     * same work would meet again, so the work is given up. A future the extension failed itself is its "not now" (a
     * store it writes to is down), and the work is tried again (docs/extending.md, "When an extension fails").
     */
    public boolean bug() {
        return bug;
    }

    /** The kind its failures are counted under. */
    public String kind() {
        return kind;
    }

    /** Which extension and call failed, as the log says it. */
    public String extension() {
        return extension;
    }

    /** The URL of the work it failed on. */
    public String url() {
        return url;
    }
}
