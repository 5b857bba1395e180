"""The joint-decision helpers the families prove their one valid plan and their greedy dead end with."""

from stageclaw.author.content import joint


def _apart(picks: tuple[int, ...]) -> bool:
    """Toy rule: no hour twice, and the second item after the first."""
    return len(set(picks)) == len(picks) and (len(picks) < 2 or picks[1] > picks[0])


def test_choices_keeps_every_complete_choice_that_fits_in_product_order():
    assert joint.choices([[9, 10], [9, 10], [10, 11]], _apart) == [(9, 10, 11)]
    assert joint.choices([[9, 10], [10, 11]], _apart) == [(9, 10), (9, 11), (10, 11)]


def test_distinct_choices_draw_from_one_pool_without_repeats():
    got = joint.choices([range(3)] * 2, lambda p: True, distinct=True)
    assert got == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]


def test_the_greedy_walk_takes_first_fits_and_says_where_it_got_stuck():
    options = [[9, 10], [10, 11], [10]]
    assert joint.greedy(options, _apart) == ([9, 10], 2)
    assert joint.choices(options, _apart) == [(9, 11, 10)]  # backing up finds the one plan
    assert joint.greedy([[9, 10], [10, 11], [11, 12]], _apart) == ([9, 10, 11], None)
