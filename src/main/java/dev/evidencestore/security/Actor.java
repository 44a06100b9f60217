package dev.evidencestore.security;

import dev.evidencestore.domain.Workspace;

import java.util.Set;

/**
 * Who is asking: the token's principal ({@code upn}, else {@code sub}), its roles, and the workspaces it is
 * limited to (null when the token names none, which means every workspace). Anonymous callers have no name.
 */
public record Actor(String name, Set<String> roles, Set<String> workspaces) {

    public static final Actor ANONYMOUS = new Actor(null, Set.of(), Set.of());

    public Actor {
        roles = Set.copyOf(roles);
        workspaces = workspaces == null ? null : Set.copyOf(workspaces);
    }

    public boolean anonymous() {
        return name == null;
    }

    public boolean mayRead() {
        return roles.stream().anyMatch(Roles.ALL::contains);
    }

    /** Whether the token reaches into this workspace; other workspaces do not exist for it. */
    public boolean holds(Workspace workspace) {
        return !anonymous() && (workspaces == null || workspaces.contains(workspace.slug()));
    }
}
