import Backtest
