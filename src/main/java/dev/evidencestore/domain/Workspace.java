package dev.evidencestore.domain;

/** A workspace slug such as {@code demo}; a workspace exists once something is created in it. */
public record Workspace(String slug) {

    private static final String RULE = "^[a-z0-9][a-z0-9-]{0,31}$";

    public Workspace {
        Slug.requireLowercase("workspace", slug, 32, RULE);
    }

    public static Workspace parse(String slug) {
        return new Workspace(slug);
    }

    @Override
    public String toString() {
        return slug;
    }
}
