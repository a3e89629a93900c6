// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {MintableERC20} from "./MintableERC20.sol";

interface IV2FactoryForSeed {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface IV2PairForSeed {
    function mint(address to) external returns (uint256 liquidity);
}

interface IV3FactoryForSeed {
    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool);
}

interface IV3PoolForSeed {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function initialize(uint160 sqrtPriceX96) external;
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data) external returns (uint256, uint256);
}

/// @title PoolSeeder
/// @notice Devnet only: builds the scale-test market (`LOCAL_EXTRA_POOLS`) in few transactions.
///         A pool is created, funded and given liquidity in one call, and tokens are deployed in
///         batches, so 20,000 pools take about a quarter of the transactions one call per step
///         would. The tokens are MintableERC20 (anyone may mint), so the seeder needs no rights.
contract PoolSeeder {
    error UnexpectedCallback();

    address private _pool;

    /// @notice Runs each call on this contract in order (delegatecall to itself), reverting with the
    ///         first failure's data: scale runs pack tens of pools into one transaction, so the
    ///         deployer sends and signs far fewer of them.
    function multicall(bytes[] calldata calls) external {
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = address(this).delegatecall(calls[i]);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
        }
    }

    /// @notice Deploys `Extra Token i` / `XTi` (18 decimals) for i in [first, first + count).
    ///         Their addresses follow from this contract's nonce, in order.
    function deployTokens(uint256 first, uint256 count) external {
        for (uint256 i = first; i < first + count; i++) {
            string memory n = Strings.toString(i);
            new MintableERC20(string.concat("Extra Token ", n), string.concat("XT", n), 18);
        }
    }

    /// @notice Creates the V2 pair, mints both sides into it and its LP tokens to `to`.
    function seedV2(address factory, address a, address b, uint256 amountA, uint256 amountB, address to) external {
        address pair = IV2FactoryForSeed(factory).createPair(a, b);
        MintableERC20(a).mint(pair, amountA);
        MintableERC20(b).mint(pair, amountB);
        IV2PairForSeed(pair).mint(to);
    }

    /// @notice Creates and initialises the V3 pool and adds a position owned by `to`, paid by minting.
    function seedV3(address factory, address t0, address t1, uint24 fee, uint160 sqrtPriceX96, int24 tickLower, int24 tickUpper, uint128 liquidity, address to) external {
        address pool = IV3FactoryForSeed(factory).createPool(t0, t1, fee);
        IV3PoolForSeed(pool).initialize(sqrtPriceX96);
        _pool = pool;
        IV3PoolForSeed(pool).mint(to, tickLower, tickUpper, liquidity, "");
        _pool = address(0);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        if (msg.sender != _pool) revert UnexpectedCallback();
        if (amount0Owed > 0) MintableERC20(IV3PoolForSeed(msg.sender).token0()).mint(msg.sender, amount0Owed);
        if (amount1Owed > 0) MintableERC20(IV3PoolForSeed(msg.sender).token1()).mint(msg.sender, amount1Owed);
    }
}
