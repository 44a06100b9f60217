package dev.evidencestore.domain;

/**
 * Who did something, as a record keeps it: the display name it shows, and the principal, which is null on rows
 * written before principals were recorded.
 */
public record Attribution(String name, Principal principal) {

    public static Attribution of(String name, String principal) {
        return new Attribution(name, principal == null ? null : Principal.parse(principal));
    }

    /**
     * Whether this is the same party as {@code other}: by principal when both have one, so that one person under two
     * spellings of their name is still one person, and two people sharing a name are two. A row from before
     * principals were recorded has only its name to compare.
     */
    public boolean isSame(Attribution other) {
        if (principal != null && other.principal != null) {
            return principal.equals(other.principal);
        }
        return name.equals(other.name);
    }

    /** The principal in the form records keep, or null. */
    public String principalForm() {
        return principal == null ? null : principal.toString();
    }
}
