"""Where the studies run and what they keep: a user's ``distributed.Client`` runs their
tasks on its cluster (the same answer as the embedded run), an address that is not one is
refused as a resource error before any connection, and a ``store`` file given by name is
read back on the second call instead of computed."""
import pytest

import knightgui_core as kg
from knightgui_core import Board


def test_a_users_client_runs_the_tasks():
    distributed = pytest.importorskip("distributed")
    embedded = kg.count_warnsdorff_tours(Board(5, 6)).to_dict()
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=":0") as client:
        with distributed.get_task_stream(client=client) as stream:
            on_cluster = kg.count_warnsdorff_tours(Board(5, 6), client=client).to_dict()
        assert stream.data, "no task ran on the client's cluster"
        assert client.status == "running"              # the caller's client is left open
    for d in (embedded, on_cluster):
        d.pop("seconds")
    assert on_cluster == embedded


def test_an_address_that_is_none_is_refused():
    with pytest.raises(kg.ResourceError):
        kg.study_symmetric(Board(6, 6), client="tcp://no such host:8786")


def test_a_store_file_is_read_back(tmp_path):
    store = tmp_path / "results.sqlite"
    first = kg.study_symmetric(Board(6, 6), "half-turn", store=str(store)).to_dict()
    again = kg.study_symmetric(Board(6, 6), "half-turn", store=store).to_dict()
    assert first["tasks"]["computed"] == first["tasks"]["total"] > 0
    assert again["tasks"]["from_store"] == again["tasks"]["total"]
    assert again["undirected_closed_tours"] == first["undirected_closed_tours"] == 78
