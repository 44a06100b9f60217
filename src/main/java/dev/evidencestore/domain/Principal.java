package dev.evidencestore.domain;

/**
 * Who a caller is for good: the identity provider that vouches for them ({@code iss}) and the subject it issued
 * ({@code sub}), which that provider never reassigns. A display name ({@code upn}, {@code preferred_username}) may be
 * renamed or spelled in another case; the principal stays. Both parts compare exactly: {@code Alice} and
 * {@code alice} are two subjects.
 */
public record Principal(String issuer, String subject) {

    /** OpenID Connect Core 1.0, section 2: a subject identifier is at most 255 ASCII characters. */
    public static final int MAX_SUBJECT = 255;

    public Principal {
        if (issuer == null || issuer.isEmpty() || !DisplayName.printable(issuer) || issuer.indexOf(' ') >= 0) {
            throw DisplayName.untrusted("iss must be printable characters without spaces");
        }
        if (subject == null || subject.isEmpty() || subject.length() > MAX_SUBJECT
                || !DisplayName.printable(subject)) {
            throw DisplayName.untrusted("sub must be 1 to " + MAX_SUBJECT + " printable characters");
        }
    }

    /**
     * The form records keep: the issuer, one space, the subject. An issuer holds no space, so the form splits back
     * at its first space whatever the subject holds.
     */
    @Override
    public String toString() {
        return issuer + " " + subject;
    }

    public static Principal parse(String form) {
        int space = form.indexOf(' ');
        if (space < 0) {
            throw new IllegalArgumentException("not the form of a principal: " + form);
        }
        return new Principal(form.substring(0, space), form.substring(space + 1));
    }
}
