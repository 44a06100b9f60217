package dev.evidencestore.preview;

/**
 * One kind of evidence a page can show as what it is: a Grafana snapshot as charts, a diff as a diff. A recogniser
 * says whether it takes an artifact by what was declared about it, then reads the bytes; bytes it cannot read make
 * it throw, and the page falls back to the generic preview with a note.
 */
public interface Recogniser {

    /** A short name, which also versions what it derives: a parser change bumps it, and facts are derived anew. */
    String name();

    boolean accepts(Subject subject);

    Preview read(Subject subject, Prefix prefix) throws Exception;
}
