"""``jaxfix review``: findings on a branch's changed lines, as a GitHub pull-request review.

changed_lines  which lines the branch changed (git)
collect        the findings on those lines, and a comment for each
suggestions    a comment: a ```suggestion block, or the fix as a diff
pull_review    the review payload, and what earlier reviews already posted
github_api     the REST client (retries, errors, the token kept safe)
post           the Actions environment, and posting without duplicates
"""
