package dev.evidencestore.security;

import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.Principal;
import dev.evidencestore.domain.Workspace;

import java.util.Set;

/**
 * Who is asking: the token's principal ({@code iss} and {@code sub}) and display name ({@code upn}, else
 * {@code preferred_username}, else {@code sub}), its roles, and the workspaces it is limited to (null when the token
 * names none, which means every workspace). Anonymous callers have neither name nor principal.
 */
public record Actor(String name, Principal principal, Set<String> roles, Set<String> workspaces) {

    public static final Actor ANONYMOUS = new Actor(null, null, Set.of(), Set.of());
    /**
     * The issuer of identities the service makes itself, without a token (the demo loader acting as its people): a
     * URN no identity provider issues tokens under, so no token can share their principals.
     */
    public static final String LOCAL_ISSUER = "urn:evidence-store:local";

    public Actor {
        roles = Set.copyOf(roles);
        workspaces = workspaces == null ? null : Set.copyOf(workspaces);
    }

    public boolean anonymous() {
        return name == null;
    }

    /** The name and principal the records this actor writes carry. */
    public Attribution attribution() {
        return new Attribution(name, principal);
    }

    public boolean mayRead() {
        return roles.stream().anyMatch(Roles.ALL::contains);
    }

    /** Whether the token reaches into this workspace; other workspaces do not exist for it. */
    public boolean holds(Workspace workspace) {
        return !anonymous() && (workspaces == null || workspaces.contains(workspace.slug()));
    }
}
